/** Tour operations: info, thumbnail, soft delete, reactivation, and the public view counter. */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import {
  ERROR_CODES,
  ERROR_TEXTS,
  NOTICES,
  TOUR_STATUS,
  VALIDATION,
  hasActiveTourSlot,
  isAcceptedThumbnailName,
  tourInfoSchema,
} from '@roomwalk/shared';
import type { TourRow } from '../db/types.js';
import { readFileUpload } from '../core/file-upload.js';
import { createProcessingQueues, enqueueProcessTour } from '../jobs/processing-jobs.js';
import { sharePreviewQueue } from '../jobs/share-preview-job.js';
import type { AuthInfo, FileUploadValue } from '../core/auth.js';
import { decodeId } from '../core/ids.js';
import { AppError, forbidden, fromZod, notFound } from '../core/errors.js';
import { countActiveTours } from './licenses.js';
import { isLicenseActive } from './uploads.js';
import type { Services } from './services.js';
import { serverNow } from '../core/clock.js';
import { viewCounter } from './view-counter.js';
import { tourDeletedWebhook } from './developer/webhook-payloads.js';

/** Thumbnails are re-encoded to this 16:9 size (crop aspect 16:9). */
const THUMBNAIL_SIZE = { width: 1280, height: 720 } as const;
/** Decoded images larger than this are refused before any pixel is processed (decompression bombs). */
const THUMBNAIL_MAX_INPUT_PIXELS = 40_000_000;
const THUMBNAIL_MAX_BYTES = 15 * 1024 * 1024;

/**
 * Who may change a tour: its owner or an admin of its company. Other members of the company get FORBIDDEN (team
 * members' cards offer Preview and Share only); anyone else gets NOT_FOUND, so ids of other companies cannot be probed.
 */
export function assertCanEdit(auth: AuthInfo, tour: Pick<TourRow, 'company_id' | 'owner_id'>): void {
  if (tour.company_id !== auth.companyId) throw notFound(ERROR_TEXTS.tourNotFound);
  if (tour.owner_id !== auth.userId && !auth.isCompanyAdmin && !auth.isSuperAdmin) throw forbidden();
}

/** A tour the caller may edit, not deleted. */
export async function loadEditableTour(services: Services, auth: AuthInfo, tourGlobalId: string): Promise<TourRow> {
  const id = decodeId('Tour', tourGlobalId);
  const tour = await services.db
    .selectFrom('tours')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!tour) throw notFound(ERROR_TEXTS.tourNotFound);
  assertCanEdit(auth, tour);
  return tour;
}

export interface TourSaveInputValue {
  id: string;
  /** Privacy switch; omitted or null keeps the current value. A change reprocesses a processed tour's clips. */
  blurFaces?: boolean | null | undefined;
  /** The live viewing switch (docs/live-viewing.md); omitted or null keeps the current value. */
  liveViewing?: boolean | null | undefined;
  title?: string | null | undefined;
  description?: string | null | undefined;
  videoURL?: string | null | undefined;
  listingLink?: string | null | undefined;
}

/**
 * tourSave: title, description and listing link. videoURL is accepted and ignored: the video is the uploaded
 * one.
 */
export async function saveTour(services: Services, auth: AuthInfo, input: TourSaveInputValue): Promise<TourRow> {
  const tour = await loadEditableTour(services, auth, input.id);
  const parsed = tourInfoSchema.safeParse({
    title: input.title,
    description: input.description,
    listingLink: input.listingLink,
  });
  if (!parsed.success) throw fromZod(parsed.error.issues);
  const { title, description, listingLink } = parsed.data;
  // Turning blurring off (or on again) remakes the clips and thumbnail from the stored upload: the current ones carry
  // the old choice. A tour still processing picks the new value up when its job claims it.
  const blurChanged = typeof input.blurFaces === 'boolean' && input.blurFaces !== tour.blur_faces;
  const reprocess = blurChanged && tour.status === TOUR_STATUS.PROCESSED && !!tour.video_key;
  if (reprocess) await createProcessingQueues(services);
  return services.db.transaction().execute(async (trx) => {
    const saved = await trx
      .updateTable('tours')
      .set({
        title,
        description: description || null,
        listing_link: listingLink || null,
        ...(typeof input.blurFaces === 'boolean' ? { blur_faces: input.blurFaces } : {}),
        ...(typeof input.liveViewing === 'boolean' ? { live_viewing: input.liveViewing } : {}),
        ...(reprocess ? { status: TOUR_STATUS.PROCESSING, progress: 0, progress_text: 'Waiting to start' } : {}),
        updated_at: new Date(),
      })
      .where('id', '=', tour.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (reprocess) await enqueueProcessTour(services, { tourId: tour.id }, trx);
    return saved;
  });
}

/**
 * The Upload scalar may hand over graphql-upload's Upload object (whose `promise` holds the file) or the file's
 * promise.
 */
async function resolveUpload(upload: unknown): Promise<FileUploadValue | null> {
  const value = (await upload) as (FileUploadValue & { promise?: Promise<FileUploadValue> }) | null;
  if (value && typeof value === 'object' && 'promise' in value && value.promise) return value.promise;
  return value;
}

async function readImage(upload: Promise<FileUploadValue> | FileUploadValue): Promise<{ name: string; data: Buffer }> {
  const file = await resolveUpload(upload);
  if (!file || !file.filename) throw new AppError(ERROR_CODES.BAD_USER_INPUT, VALIDATION.noFileSelected);
  if (!isAcceptedThumbnailName(file.filename))
    throw new AppError(ERROR_CODES.UPLOAD_INVALID, 'Please choose a .jpg, .jpeg or .png image.');
  // Drains what it refuses (http/graphql-upload.ts), so a too-large image answers instead of stalling the request.
  const data = await readFileUpload(
    file,
    THUMBNAIL_MAX_BYTES,
    () => new AppError(ERROR_CODES.UPLOAD_INVALID, 'The image is too large.'),
  );
  return { name: file.filename, data };
}

/**
 * Decodes (bounded in pixels), orients, centre-crops to 16:9 and re-encodes as a 1280x720 JPEG: nothing sent is served
 * as is.
 */
async function makeThumbnail(input: Buffer): Promise<Buffer> {
  try {
    return await sharp(input, { limitInputPixels: THUMBNAIL_MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize(THUMBNAIL_SIZE.width, THUMBNAIL_SIZE.height, { fit: 'cover', position: 'centre' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
  } catch {
    throw new AppError(ERROR_CODES.UPLOAD_INVALID, NOTICES.unableToUpdateThumbnail);
  }
}

/**
 * tourUpdateThumbnailURL: stores the new image under a fresh key (media keys are immutable) and removes the old one.
 */
export async function updateThumbnail(
  services: Services,
  auth: AuthInfo,
  input: { id: string; thumbnailURL: Promise<FileUploadValue> },
): Promise<TourRow> {
  const tour = await loadEditableTour(services, auth, input.id);
  const { data } = await readImage(input.thumbnailURL);
  const jpeg = await makeThumbnail(data);
  const key = `tours/${tour.id}/thumbs/${randomUUID()}.jpg`;
  await services.storage.put(key, jpeg, 'image/jpeg');
  let updated: TourRow | undefined;
  let oldKey: string | null = null;
  try {
    updated = await services.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('tours')
        .select(['thumbnail_key', 'deleted_at'])
        .where('id', '=', tour.id)
        .forUpdate()
        .executeTakeFirst();
      if (!row || row.deleted_at) return undefined;
      oldKey = row.thumbnail_key;
      return trx
        .updateTable('tours')
        .set({ thumbnail_key: key, updated_at: new Date() })
        .where('id', '=', tour.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  } finally {
    if (!updated) await services.storage.delete(key).catch(() => undefined);
  }
  if (!updated) throw notFound(ERROR_TEXTS.tourNotFound);
  await sharePreviewQueue.enqueue(services, { tourId: tour.id });
  // A thumbnail made by processing stays with its clips; only an earlier chosen one is removed.
  if (oldKey && /^tours\/[^/]+\/thumbs\//.test(oldKey))
    await services.storage.delete(oldKey).catch((e) => services.log.warn(e, 'could not delete a replaced thumbnail'));
  return updated;
}

/**
 * tourDelete: a soft delete. The row stays (its upload keeps counting for the month, the player answers "removed");
 * its files and clip rows go, and it no longer holds an active-tour slot.
 */
export async function deleteTour(services: Services, auth: AuthInfo, tourGlobalId: string): Promise<void> {
  const tour = await loadEditableTour(services, auth, tourGlobalId);
  await services.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('tours')
      .set({ deleted_at: new Date(), updated_at: new Date() })
      .where('id', '=', tour.id)
      .where('deleted_at', 'is', null)
      .execute();
    await trx.deleteFrom('clips').where('tour_id', '=', tour.id).execute();
  });
  // Files after the commit: a processing attempt still running sees deleted_at at its own commit and removes what it
  // wrote.
  await services.storage.deletePrefix(`tours/${tour.id}/`);
  if (tour.video_key) await services.storage.delete(tour.video_key);
  await tourDeletedWebhook(services, tour.company_id, tour.id);
}

/** tourReactivate: a deactivated tour takes an active slot again when one is free; otherwise NO_ACTIVE_TOURS_LEFT. */
export async function reactivateTour(services: Services, auth: AuthInfo, tourGlobalId: string): Promise<TourRow> {
  const tour = await loadEditableTour(services, auth, tourGlobalId);
  return services.db.transaction().execute(async (trx) => {
    // The licence row is the company's quota lock, as in upload submit.
    const license = await trx
      .selectFrom('licenses')
      .selectAll()
      .where('company_id', '=', tour.company_id)
      .forUpdate()
      .executeTakeFirst();
    const row = await trx
      .selectFrom('tours')
      .selectAll()
      .where('id', '=', tour.id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (row.deleted_at) throw notFound(ERROR_TEXTS.tourNotFound);
    if (!row.deactivated_at && row.status !== TOUR_STATUS.DEACTIVATED) return row;
    if (!isLicenseActive(license, serverNow(services)))
      throw new AppError(ERROR_CODES.NO_ACTIVE_LICENSE, ERROR_TEXTS.noActiveLicense);
    const active = await countActiveTours(trx, { companyId: tour.company_id });
    if (
      !hasActiveTourSlot({
        quantity: license.quantity,
        monthlyActiveTours: active,
        uploadLimit: license.upload_limit,
        monthlyUploadedTours: 0,
      })
    ) {
      throw new AppError(ERROR_CODES.NO_ACTIVE_TOURS_LEFT, ERROR_TEXTS.noActiveToursLeft);
    }
    const status =
      row.status === TOUR_STATUS.DEACTIVATED
        ? row.clips_version
          ? TOUR_STATUS.PROCESSED
          : TOUR_STATUS.FAILED
        : row.status;
    return trx
      .updateTable('tours')
      .set({ deactivated_at: null, status, updated_at: new Date() })
      .where('id', '=', tour.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/**
 * The public tour of the players. Deleted → TOUR_REMOVED; unknown → NOT_FOUND. A deactivated tour still plays
 * (links already shared keep working). Answers count no view: a view is a visitor's visit, reported by the player's
 * beacon (services/reports/analytics.ts recordTourView), so the answer is the same for every caller and cacheable.
 */
export async function viewPublicTour(
  services: Services,
  auth: AuthInfo | null,
  tourGlobalId: string,
): Promise<TourRow> {
  const id = decodeId('Tour', tourGlobalId);
  const tour = await services.db.selectFrom('tours').selectAll().where('id', '=', id).executeTakeFirst();
  if (!tour) throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.invalidLink);
  if (tour.deleted_at) throw new AppError(ERROR_CODES.TOUR_REMOVED, ERROR_TEXTS.tourRemoved);
  // Visits not yet written by this node's batch (services/view-counter.ts) are added, so counts never go backwards.
  void auth;
  return viewCounter(services).withPending(tour);
}
