/**
 * The original follows the mezzanine (docs/upload-conversion.md): where the upload screen sent a video converted on
 * the device, the tour is made from that 1080p mezzanine, and the console then uploads the original in the background
 * and attaches it here. The professional photos are picked from it at full resolution, as from any original.
 * Attaching takes the uploader's own completed upload for a tour they may edit; the shots queue then probes it like
 * any upload and keeps it only when it is the same video (duration, orientation) at a larger size (services/shots/run-shots.ts
 * attachPhotoSourceJob). Nothing the client says is taken on trust.
 */
import { randomBytes } from 'node:crypto';
import { ERROR_CODES } from '@roomwalk/shared';
import type { AuthInfo } from '../core/auth.js';
import { AppError } from '../core/errors.js';
import { shotsQueue } from '../jobs/shots-job.js';
import type { Services } from './services.js';
import { loadEditableTour } from './tours.js';
import { UPLOAD_KEY } from './uploads.js';
import { serverNow } from '../core/clock.js';

/**
 * A new key for a tour's original: under the tour's own prefix (deleted with the tour), with 128 random bits nobody can
 * guess, named in `tours.photo_source_key`. /media serves it only to members of the tour's company
 * (storage/media-key.ts); the photos job reads it from the store.
 */
export const newPhotoSourceKey = (tourId: string) => `tours/${tourId}/originals/${randomBytes(16).toString('hex')}.mp4`;

/** Where originals were kept before migration 0225: still read by the photos job, never served. */
const legacyPhotoSourceKey = (tourId: string) => `tours/${tourId}/photo-source`;

/** The key of the tour's original, if it has one (the photos are taken from it, faces blurred: services/shots/run-shots.ts). */
export async function photoSourceOf(services: Services, tourId: string): Promise<string | null> {
  const row = await services.db
    .selectFrom('tours')
    .select('photo_source_key')
    .where('id', '=', tourId)
    .executeTakeFirst();
  if (row?.photo_source_key) return row.photo_source_key;
  const legacy = legacyPhotoSourceKey(tourId);
  return (await services.storage.head(legacy)) ? legacy : null;
}

/** tourPhotoSourceAttach: marks the upload used (so it is not swept) and queues its check. */
export async function attachPhotoSource(
  services: Services,
  auth: AuthInfo,
  tourGlobalId: string,
  key: string,
): Promise<void> {
  const tour = await loadEditableTour(services, auth, tourGlobalId);
  const upload = UPLOAD_KEY.test(key)
    ? await services.db.selectFrom('uploads').selectAll().where('key', '=', key).executeTakeFirst()
    : undefined;
  if (!upload || upload.user_id !== auth.userId)
    throw new AppError(ERROR_CODES.NOT_FOUND, 'This upload was not found.');
  if (upload.submitted_at) throw new AppError(ERROR_CODES.CONFLICT, 'This upload was already submitted.');
  if (upload.multipart_id ? !upload.completed_at : !(await services.storage.head(key))) {
    throw new AppError(ERROR_CODES.UPLOAD_INVALID, 'The video did not finish uploading. Please try again.');
  }
  const taken = await services.db
    .updateTable('uploads')
    .set({ submitted_at: serverNow(services), tour_id: tour.id })
    .where('id', '=', upload.id)
    .where('submitted_at', 'is', null)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1)
    throw new AppError(ERROR_CODES.CONFLICT, 'This upload was already submitted.');
  await shotsQueue.enqueue(services, { kind: 'photo-source', tourId: tour.id, key });
}
