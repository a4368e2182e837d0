/**
 * The original that followed a device-converted mezzanine (services/photo-source.ts): probed like any upload, and kept
 * as the tour's photo source only when it is the same video (the same duration within half a second, the same
 * orientation) at a larger size than the mezzanine the tour was made from. Either way the upload's object is removed;
 * a refused original leaves the photos reading the mezzanine. The work of the shots queue's photo-source kind (its job
 * module is jobs/shots-job.ts, its handler wired in jobs/workers.ts).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assertAcceptable, probeVideo } from '../../media/probe-video.js';
import type { Services } from '../services.js';
import { newPhotoSourceKey } from '../photo-source.js';

/** Seconds the original's measured duration may differ from the mezzanine's (which is resampled to 30 fps). */
const SAME_DURATION_SECONDS = 0.5;

export async function attachPhotoSourceJob(services: Services, job: { tourId: string; key: string }): Promise<void> {
  const tour = await services.db
    .selectFrom('tours')
    .select(['video_key', 'deleted_at'])
    .where('id', '=', job.tourId)
    .executeTakeFirst();
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-photo-source-'));
  try {
    if (!tour || tour.deleted_at || !tour.video_key) return;
    const original = path.join(work, `original${path.extname(job.key)}`);
    const mezzanine = path.join(work, `mezzanine${path.extname(tour.video_key) || '.mp4'}`);
    await services.storage.download(job.key, original);
    await services.storage.download(tour.video_key, mezzanine);
    const [o, m] = [await probeVideo(original), await probeVideo(mezzanine)];
    assertAcceptable(o);
    const why =
      Math.abs(o.durationSeconds - m.durationSeconds) > SAME_DURATION_SECONDS
        ? `${o.durationSeconds.toFixed(2)} s against the tour's ${m.durationSeconds.toFixed(2)} s`
        : o.portrait !== m.portrait
          ? 'another orientation'
          : o.width * o.height <= m.width * m.height
            ? `${o.width}x${o.height} is no larger than the tour's ${m.width}x${m.height}`
            : null;
    if (why) {
      services.log.warn({ tourId: job.tourId, key: job.key, why }, 'photo source refused: not the tour video');
      return;
    }
    const key = newPhotoSourceKey(job.tourId);
    await services.storage.putFile(key, original, 'video/mp4');
    // Named on the tour only while it exists; the tour may have been deleted meanwhile (its prefix removed before this
    // put): then remove what was just put. An earlier original (or one at the old key) goes once replaced.
    const earlier = await services.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('tours')
        .select('photo_source_key')
        .where('id', '=', job.tourId)
        .where('deleted_at', 'is', null)
        .forUpdate()
        .executeTakeFirst();
      if (!row) return null;
      await trx.updateTable('tours').set({ photo_source_key: key }).where('id', '=', job.tourId).execute();
      return { key: row.photo_source_key };
    });
    if (!earlier) await services.storage.delete(key);
    else {
      if (earlier.key) await services.storage.delete(earlier.key);
      await services.storage.delete(`tours/${job.tourId}/photo-source`);
    }
  } catch (err) {
    services.log.warn({ err, tourId: job.tourId, key: job.key }, 'photo source refused');
  } finally {
    await services.storage.deleteUpload(job.key).catch(() => undefined);
    await fs.rm(work, { recursive: true, force: true });
  }
}
