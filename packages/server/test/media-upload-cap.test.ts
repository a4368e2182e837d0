/**
 * The original that follows a converted upload (`uploadMultipartStart` with `photoSourceFor`) is stored like any upload,
 * so its announced size counts toward the bytes a user's unfinished uploads may add up to (openUploadRefusal), as
 * every other upload's does: two originals that together pass the allowance are not both taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { seedProcessedTour } from './fixtures/tours.js';
import { MQ } from './support/multipart-client.js';

const MAX = 100 * 1024 ** 2;

describe('the photo source counts toward the upload allowance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLE: 'api', UPLOAD_MAX_BYTES: MAX });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('an original of 60 % of the allowance is taken; a second one is refused; a smaller one still fits', async () => {
    // Free plan: one tour, so the unfinished uploads may add up to one largest video.
    const agent = await seedUser(t.app, { plan: 'free' });
    const { id } = await seedProcessedTour(t, agent, 1);
    const start = (size: number, lastModified: number) =>
      t.gql(
        MQ.start,
        { input: { extension: 'mp4', fileName: `IMG_${lastModified}.MOV`, size, lastModified, photoSourceFor: id } },
        agent.token,
      );
    const first = (await start(Math.floor(MAX * 0.6), 1)).data.uploadMultipartStart;
    expect(first.error).toBeNull();
    const second = (await start(Math.floor(MAX * 0.6), 2)).data.uploadMultipartStart;
    expect(second.error).toBe(ERROR_CODES.UPLOAD_INVALID);
    expect(second.message).toMatch(/^Your unfinished uploads already add up to the 0\.1 GB your plan allows at once\./);
    expect(second.key).toBeNull();
    const rows = await t.app.services.db.selectFrom('uploads').select('expected_size').execute();
    expect(rows.map((r) => Number(r.expected_size))).toEqual([Math.floor(MAX * 0.6)]);
    expect((await start(Math.floor(MAX * 0.3), 3)).data.uploadMultipartStart.error).toBeNull();
  });
});
