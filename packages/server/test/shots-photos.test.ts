/**
 * Professional photos end to end on a generated video, staging and the AI edit route against a loopback image service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { ERROR_CODES, ERROR_TEXTS, SHOT_STATUS } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { generateShotsJob, shotWorkJob } from '../src/services/shots/run-shots.js';
import { AI_NOT_CONFIGURED_TEXT } from '../src/services/ai/ai-worker.js';
import { expectNoWorkDirLeft, processedTour, startImageService } from './ai-fixtures.js';

const GEN = 'mutation($id: ID!) { generateTourShots(tourId: $id) { id shots { id } } }';
const SHOTS =
  'query($id: ID!) { tour(tourID: $id) { shots { id shotStatus roomType frameScore sourceClipIndex sourceFramePosition originalImageURI enhancedImageURI stagedImageURI errorMessage } } }';
const ENHANCE = 'mutation($id: ID!) { regenerateShot(shotId: $id) { shotStatus enhancedImageURI errorMessage } }';
const STAGE = 'mutation($id: ID!) { generateStagedShot(shotId: $id) { shotStatus stagedImageURI errorMessage } }';

describe.each(DB_KINDS)('professional photos on %s', (kind) => {
  let t: TestApp;
  let bare: TestApp;
  let owner: SeededUser;
  let service: Awaited<ReturnType<typeof startImageService>>;
  beforeAll(async () => {
    service = await startImageService();
    t = await startTestApp(kind, { ROLE: 'api', AI_WORKER_URL: service.url });
    bare = await startTestApp('pglite', { ROLE: 'api' });
    owner = await seedUser(t.app, { plan: 'pro' });
  });
  afterAll(async () => {
    await t?.stop();
    await bare?.stop();
    await service?.close();
  });
  const raw = (id: string) => id.replace(/^shot_/, '');

  it('refuses a tour that is not processed', async () => {
    const tourId = await processedTour(t.app, owner, { status: 'PROCESSING' });
    const r = await t.gql(GEN, { id: `tour_${tourId}` }, owner.token);
    expect(r.errors?.[0]).toMatchObject({
      message: ERROR_TEXTS.shotsNotReady,
      extensions: { code: ERROR_CODES.TOUR_NOT_PROCESSED },
    });
  });

  it('picks scored full-resolution frames per room, enhances and stages them with the availability rules', async () => {
    const tourId = await processedTour(t.app, owner);
    expect((await t.gql(GEN, { id: `tour_${tourId}` }, owner.token)).errors).toBeUndefined();
    await expectNoWorkDirLeft('roomwalk-shots-', () => generateShotsJob(t.app.services, tourId));
    const shots = (await t.gql(SHOTS, { id: `tour_${tourId}` }, owner.token)).data.tour.shots;
    expect(shots.length).toBeGreaterThanOrEqual(4);
    for (const s of shots) {
      expect(s).toMatchObject({ shotStatus: SHOT_STATUS.COMPLETED, enhancedImageURI: null, stagedImageURI: null });
      expect(s.frameScore).toBeGreaterThan(0);
      expect(s.frameScore).toBeLessThanOrEqual(100);
      expect(s.sourceFramePosition).toBeLessThan(36);
    }
    const original = Buffer.from(await (await fetch(shots[0].originalImageURI)).arrayBuffer());
    expect(await sharp(original).metadata()).toMatchObject({ width: 640, height: 360, format: 'jpeg' });

    const shot = shots[0].id as string;
    // Stage needs an enhanced image first.
    expect((await t.gql(STAGE, { id: shot }, owner.token)).errors?.[0]?.extensions?.code).toBe(ERROR_CODES.CONFLICT);
    const e = await t.gql(ENHANCE, { id: shot }, owner.token);
    expect(e.data.regenerateShot.shotStatus).toBe(SHOT_STATUS.PROCESSING);
    // Nothing else while processing.
    expect((await t.gql(ENHANCE, { id: shot }, owner.token)).errors?.[0]?.extensions?.code).toBe(ERROR_CODES.CONFLICT);
    await shotWorkJob(t.app.services, { kind: 'enhance', shotId: raw(shot) });
    let now = (await t.gql(SHOTS, { id: `tour_${tourId}` }, owner.token)).data.tour.shots.find(
      (s: { id: string }) => s.id === shot,
    );
    expect(now).toMatchObject({ shotStatus: SHOT_STATUS.COMPLETED, errorMessage: null });
    expect(now.enhancedImageURI).toMatch(/enhanced-/);
    expect(now.originalImageURI).toBe(shots[0].originalImageURI);
    expect((await t.gql(ENHANCE, { id: shot }, owner.token)).errors?.[0]?.extensions?.code).toBe(ERROR_CODES.CONFLICT);

    const s1 = await t.gql(STAGE, { id: shot }, owner.token);
    expect(s1.data.generateStagedShot.shotStatus).toBe(SHOT_STATUS.PROCESSING);
    await shotWorkJob(t.app.services, { kind: 'stage', shotId: raw(shot), prompt: 'modern staging with furniture' });
    now = (await t.gql(SHOTS, { id: `tour_${tourId}` }, owner.token)).data.tour.shots.find(
      (s: { id: string }) => s.id === shot,
    );
    expect(now.shotStatus).toBe(SHOT_STATUS.COMPLETED);
    expect(now.stagedImageURI).toMatch(/virtually-staged-/);
    expect(service.requests.at(-1)).toMatchObject({
      prompt: 'modern staging with furniture',
      width: '640',
      height: '360',
      type: 'image/jpeg',
    });
    expect((await t.gql(STAGE, { id: shot }, owner.token)).errors?.[0]?.extensions?.code).toBe(ERROR_CODES.CONFLICT);

    // A failing service: FAILED with its status in the message.
    const other = shots[1].id as string;
    await t.gql(ENHANCE, { id: other }, owner.token);
    await shotWorkJob(t.app.services, { kind: 'enhance', shotId: raw(other) });
    await t.gql(STAGE, { id: other }, owner.token);
    service.failNext(503);
    await shotWorkJob(t.app.services, { kind: 'stage', shotId: raw(other), prompt: 'x' });
    now = (await t.gql(SHOTS, { id: `tour_${tourId}` }, owner.token)).data.tour.shots.find(
      (s: { id: string }) => s.id === other,
    );
    expect(now).toMatchObject({ shotStatus: SHOT_STATUS.FAILED, stagedImageURI: null });
    expect(now.errorMessage).toMatch(/503/);
  });

  it('says while a generation is queued or running (shotsGenerating) and whether Stage can run (stagingAvailable)', async () => {
    const FLAGS = 'query($id: ID!) { tour(tourID: $id) { shotsGenerating stagingAvailable } }';
    const tourId = await processedTour(t.app, owner);
    expect((await t.gql(FLAGS, { id: `tour_${tourId}` }, owner.token)).data.tour).toEqual({
      shotsGenerating: false,
      stagingAvailable: true,
    });
    expect((await t.gql(GEN, { id: `tour_${tourId}` }, owner.token)).errors).toBeUndefined();
    expect((await t.gql(FLAGS, { id: `tour_${tourId}` }, owner.token)).data.tour.shotsGenerating).toBe(true);
    // Only the owner's company learns it.
    expect((await t.gql(FLAGS, { id: `tour_${tourId}` })).data?.tour?.shotsGenerating ?? false).toBe(false);
    // The generation's job (this app runs no workers): a worker takes it, then completes it.
    const job = async (state: string) => {
      const { rows } = await t.app.services.database.executeSql(
        `UPDATE pgboss.job SET state = $1 WHERE name = 'shots' AND data->>'tourId' = $2 RETURNING id`,
        [state, tourId],
      );
      return rows.length;
    };
    expect(await job('active')).toBe(1);
    expect((await t.gql(FLAGS, { id: `tour_${tourId}` }, owner.token)).data.tour.shotsGenerating).toBe(true);
    expect(await job('completed')).toBe(1);
    expect((await t.gql(FLAGS, { id: `tour_${tourId}` }, owner.token)).data.tour.shotsGenerating).toBe(false);
    const o2 = await seedUser(bare.app, { plan: 'pro' });
    const bareTour = await processedTour(bare.app, o2);
    expect((await bare.gql(FLAGS, { id: `tour_${bareTour}` }, o2.token)).data.tour.stagingAvailable).toBe(false);
  });

  it('staging without a configured AI service fails the shot with a clear message', async () => {
    const o2 = await seedUser(bare.app, { plan: 'pro' });
    const tourId = await processedTour(bare.app, o2);
    const { id } = await bare.app.services.db
      .insertInto('shots')
      .values({ tour_id: tourId, status: 'COMPLETED', original_key: 'k/o.jpg', enhanced_key: 'k/e.jpg' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const r = await bare.gql(STAGE, { id: `shot_${id}` }, o2.token);
    expect(r.data.generateStagedShot).toMatchObject({
      shotStatus: SHOT_STATUS.FAILED,
      errorMessage: AI_NOT_CONFIGURED_TEXT,
    });
  });

  it('POST /ai/inpainting forwards the form and returns the image; clear errors otherwise', async () => {
    const img = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#204060' } })
      .jpeg({ quality: 85 })
      .toBuffer();
    const form = () => {
      const f = new FormData();
      f.append('image', new Blob([new Uint8Array(img)], { type: 'image/jpeg' }), 'canvas.jpg');
      f.append('prompt', 'empty rooms');
      f.append('width', '64');
      f.append('height', '48');
      return f;
    };
    const auth = { authorization: `Bearer ${owner.token}` };
    expect((await fetch(`${t.url}/ai/inpainting`, { method: 'POST', body: form() })).status).toBe(401);
    const ok = await fetch(`${t.url}/ai/inpainting`, { method: 'POST', body: form(), headers: auth });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/jpeg');
    const { data } = await sharp(Buffer.from(await ok.arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(200 - 0x20); // inverted #20 → about #df
    const big = new FormData();
    big.append('image', new Blob([new Uint8Array(img)], { type: 'image/jpeg' }), 'c.jpg');
    big.append('prompt', 'x');
    big.append('width', '9000');
    big.append('height', '48');
    expect((await fetch(`${t.url}/ai/inpainting`, { method: 'POST', body: big, headers: auth })).status).toBe(413);
    service.failNext(500);
    const bad = await fetch(`${t.url}/ai/inpainting`, { method: 'POST', body: form(), headers: auth });
    expect(bad.status).toBe(502);
    expect(((await bad.json()) as { message: string }).message).toMatch(/500/);
    const o2 = await seedUser(bare.app, { plan: 'pro' });
    const none = await fetch(`${bare.url}/ai/inpainting`, {
      method: 'POST',
      body: form(),
      headers: { authorization: `Bearer ${o2.token}` },
    });
    expect(none.status).toBe(503);
    expect(await none.json()).toMatchObject({
      code: ERROR_CODES.SERVICE_NOT_CONFIGURED,
      message: AI_NOT_CONFIGURED_TEXT,
    });
  });
});
