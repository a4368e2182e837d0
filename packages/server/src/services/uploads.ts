/**
 * Direct uploads: a signed PUT URL per video, then one submit that passes the quota gates and starts
 * processing.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  ERROR_CODES,
  ERROR_TEXTS,
  TOUR_STATUS,
  fileExtensionSchema,
  formatTexts,
  hasActiveTourSlot,
  hasUploadSlot,
  openUploadAllowance,
  type ErrorCode,
  type LicenseCounts,
} from '@roomwalk/shared';
import type { Database, LicenseRow } from '../db/types.js';
import type { AuthInfo } from '../core/auth.js';
import { encodeId } from '../core/ids.js';
import { AppError } from '../core/errors.js';
import { createProcessingQueues, enqueueProcessTour } from '../jobs/processing-jobs.js';
import { countActiveTours, countUploadsSince, currentPeriodStart } from './licenses.js';
import { UploadChangedError } from '../storage/storage.js';
import type { Services } from './services.js';
import { serverNow } from '../core/clock.js';

/** The Content-Type each accepted video extension is uploaded with (the signature binds it). */
export const VIDEO_CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  '3gp': 'video/3gpp',
  hevc: 'video/h265',
};

/** Upload keys are ours: uploads/<uuid>.<ext>, unguessable and never reused. */
export const UPLOAD_KEY = /^uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{2,5}$/;

export interface PreSignedUpload {
  uploadURL: string | null;
  key: string | null;
  headers: Array<{ key: string; value: string }>;
  error: string | null;
  message: string | null;
}

const refused = (error: ErrorCode, message: string): PreSignedUpload => ({
  uploadURL: null,
  key: null,
  headers: [],
  error,
  message,
});

/** Whether a licence is in force at `now` (the server's clock, core/clock.ts serverNow): it has no end or ends later. */
export function isLicenseActive(license: Pick<LicenseRow, 'end_date'> | undefined, now: Date): license is LicenseRow {
  return !!license && (!license.end_date || new Date(license.end_date).getTime() > now.getTime());
}

async function licenseCounts(
  db: Kysely<Database>,
  companyId: string,
  license: LicenseRow,
  now: Date,
): Promise<LicenseCounts> {
  return {
    quantity: license.quantity,
    uploadLimit: license.upload_limit,
    monthlyActiveTours: await countActiveTours(db, { companyId }),
    monthlyUploadedTours: await countUploadsSince(db, currentPeriodStart(license, now), { companyId }),
  };
}

/** Which quota gate refuses a new tour for this company at `now` (the server's clock), if any. */
export async function quotaRefusal(
  db: Kysely<Database>,
  companyId: string,
  license: LicenseRow | undefined,
  now: Date,
): Promise<{ code: ErrorCode; message: string } | null> {
  if (!isLicenseActive(license, now))
    return { code: ERROR_CODES.NO_ACTIVE_LICENSE, message: ERROR_TEXTS.noActiveLicense };
  const counts = await licenseCounts(db, companyId, license, now);
  if (!hasActiveTourSlot(counts))
    return { code: ERROR_CODES.NO_ACTIVE_TOURS_LEFT, message: ERROR_TEXTS.noActiveToursLeft };
  if (!hasUploadSlot(counts))
    return { code: ERROR_CODES.NO_MONTHLY_UPLOADS_LEFT, message: ERROR_TEXTS.noMonthlyUploadsLeft };
  return null;
}

const gigabytes = (bytes: number) => Math.round((bytes / 1024 ** 3) * 10) / 10;

/** The refusal of a video larger than UPLOAD_MAX_BYTES, in the user's words. */
export const tooLargeText = (services: Services) =>
  formatTexts.videoTooLarge(gigabytes(services.config.UPLOAD_MAX_BYTES));

/**
 * The unfinished uploads one user may hold at once (`openUploadAllowance` in @roomwalk/shared): a new one
 * is refused beyond the count, or when the sizes multipart uploads announced, with `declaredBytes`, pass the plan's
 * bytes. A single-PUT link announces no size; it counts in the number, and expires after UPLOAD_URL_TTL_SECONDS.
 * Uploads begun longer than UPLOAD_ABANDON_SECONDS ago no longer count: the sweep removes them.
 */
export async function openUploadRefusal(
  services: Services,
  auth: AuthInfo,
  license: LicenseRow,
  declaredBytes: number,
): Promise<string | null> {
  const { db, config } = services;
  const since = new Date(Date.now() - config.UPLOAD_ABANDON_SECONDS * 1000);
  const open = await db
    .selectFrom('uploads')
    .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.sum<string | null>('expected_size').as('bytes')])
    .where('user_id', '=', auth.userId)
    .where('submitted_at', 'is', null)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  const allowance = openUploadAllowance(
    await licenseCounts(db, auth.companyId, license, serverNow(services)),
    config.UPLOAD_MAX_BYTES,
  );
  const count = Number(open.n);
  if (count >= allowance.count) return formatTexts.tooManyOpenUploads(count);
  if (Number(open.bytes ?? 0) + declaredBytes > allowance.bytes)
    return formatTexts.openUploadsTooLarge(gigabytes(allowance.bytes));
  return null;
}

/**
 * fileGetPreSignedUrl: answers refusals in `error`/`message` (the console opens its upload error dialog from them)
 * rather than as GraphQL errors. The gates are checked here too, so nobody uploads a large file only to be refused
 * at submit; submit checks them again under a lock.
 */
export async function createUploadUrl(
  services: Services,
  auth: AuthInfo,
  extensionInput: string,
): Promise<PreSignedUpload> {
  const license = await services.db
    .selectFrom('licenses')
    .selectAll()
    .where('company_id', '=', auth.companyId)
    .executeTakeFirst();
  const gate = await quotaRefusal(services.db, auth.companyId, license, serverNow(services));
  if (gate?.code === ERROR_CODES.NO_ACTIVE_LICENSE) return refused(gate.code, gate.message);
  const ext = fileExtensionSchema.safeParse(extensionInput);
  if (!ext.success)
    return refused(ERROR_CODES.UPLOAD_INVALID, ext.error.issues[0]?.message ?? 'This file type is not supported.');
  if (gate) return refused(gate.code, gate.message);
  const open = await openUploadRefusal(services, auth, license as LicenseRow, 0);
  if (open) return refused(ERROR_CODES.UPLOAD_INVALID, open);

  const contentType = VIDEO_CONTENT_TYPES[ext.data] ?? 'application/octet-stream';
  const key = `uploads/${randomUUID()}.${ext.data}`;
  await services.db
    .insertInto('uploads')
    .values({ key, company_id: auth.companyId, user_id: auth.userId, extension: ext.data, size: null, tour_id: null })
    .execute();
  const put = await services.storage.presignPut(key, {
    contentType,
    maxBytes: services.config.UPLOAD_MAX_BYTES,
    expiresInSeconds: services.config.UPLOAD_URL_TTL_SECONDS,
  });
  return { uploadURL: put.url, key, headers: put.headers, error: null, message: null };
}

/**
 * fileSubmitPreSignedUpload: the uploader's own key, once. The licence row is locked for the whole check-and-create,
 * so two submits racing for the last slot cannot both win; the job is enqueued in the same transaction, so a tour
 * never exists without its job.
 */
export async function submitUpload(
  services: Services,
  auth: AuthInfo,
  key: string,
): Promise<{ bucketURL: string; tourId: string }> {
  const upload = UPLOAD_KEY.test(key)
    ? await services.db.selectFrom('uploads').selectAll().where('key', '=', key).executeTakeFirst()
    : undefined;
  if (!upload || upload.user_id !== auth.userId)
    throw new AppError(ERROR_CODES.NOT_FOUND, 'This upload was not found.');
  if (upload.submitted_at) throw new AppError(ERROR_CODES.CONFLICT, 'This upload was already submitted.');

  await createProcessingQueues(services);
  let tooLarge = false;
  const tour = await services.db
    .transaction()
    .execute(async (trx) => {
      const locked = await trx
        .selectFrom('uploads')
        .selectAll()
        .where('id', '=', upload.id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (locked.submitted_at) throw new AppError(ERROR_CODES.CONFLICT, 'This upload was already submitted.');
      // Sealed under the row lock (a local PUT takes it to rename its file into place; S3 copies the checked staging
      // object to the key): what is checked here is what is processed, whatever PUT finishes after this submit.
      const check = (s: { size: number }) => {
        if (s.size === 0)
          throw new AppError(ERROR_CODES.UPLOAD_INVALID, 'The video did not finish uploading. Please try again.');
        if (s.size > services.config.UPLOAD_MAX_BYTES) {
          tooLarge = true;
          throw new AppError(ERROR_CODES.UPLOAD_INVALID, tooLargeText(services));
        }
      };
      const stored = await services.storage.sealUpload(key, check).catch((err: unknown) => {
        if (err instanceof UploadChangedError)
          throw new AppError(
            ERROR_CODES.UPLOAD_INVALID,
            'The video changed while it was being submitted. Please wait for the upload to finish and try again.',
          );
        throw err;
      });
      if (!stored)
        throw new AppError(ERROR_CODES.UPLOAD_INVALID, 'The video did not finish uploading. Please try again.');
      const license = await trx
        .selectFrom('licenses')
        .selectAll()
        .where('company_id', '=', auth.companyId)
        .forUpdate()
        .executeTakeFirst();
      // The monthly count compares submitted_at with the period's start, so both are by the server's clock.
      const now = serverNow(services);
      const gate = await quotaRefusal(trx, auth.companyId, license, now);
      if (gate) throw new AppError(gate.code, gate.message);
      const created = await trx
        .insertInto('tours')
        .values({
          company_id: auth.companyId,
          owner_id: auth.userId,
          title: null,
          description: null,
          listing_link: null,
          video_key: key,
          thumbnail_key: null,
          intro_logo_key: null,
          status: TOUR_STATUS.PROCESSING,
          progress_text: 'Waiting to start',
          video_info: null,
          fps: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      // This is what counts as a monthly upload; deleting the tour later never gives it back.
      await trx
        .updateTable('uploads')
        .set({ submitted_at: now, tour_id: created.id, size: stored.size })
        .where('id', '=', upload.id)
        .execute();
      await enqueueProcessTour(services, { tourId: created.id }, trx);
      return created;
    })
    .catch(async (err: unknown) => {
      // Possible with S3, whose presigned PUT cannot bound the size: refuse and drop the object.
      if (tooLarge) await services.storage.deleteUpload(key);
      throw err;
    });
  return { bucketURL: services.storage.publicUrl(key), tourId: encodeId('Tour', tour.id) };
}

/**
 * Uploads never submitted are forgotten UPLOAD_ABANDON_SECONDS after they began (they count against the
 * user's unfinished uploads until then): the row, any parts, and any bytes that arrived (staged or sealed). Staged
 * bytes older than that go too: a PUT that finished after its submit left them.
 */
export async function sweepAbandonedUploads(services: Services, now: Date): Promise<number> {
  const cutoff = new Date(
    now.getTime() - Math.max(services.config.UPLOAD_ABANDON_SECONDS, services.config.UPLOAD_URL_TTL_SECONDS) * 1000,
  );
  const stale = await services.db
    .selectFrom('uploads')
    .select(['id', 'key', 'multipart_id'])
    .where('submitted_at', 'is', null)
    .where('created_at', '<', cutoff)
    .limit(500)
    .execute();
  for (const u of stale) {
    // A multipart upload is aborted first: its parts are deleted and its part URLs stop working.
    if (u.multipart_id) await services.storage.abortMultipart(u.key, u.multipart_id);
    await services.storage.deleteUpload(u.key);
    await services.db.deleteFrom('uploads').where('id', '=', u.id).where('submitted_at', 'is', null).execute();
  }
  await services.storage.sweepStagedUploads(cutoff);
  // Multipart uploads storage still holds but no row names (a crash between starting one and writing its row).
  await services.storage.sweepMultipart(
    cutoff,
    async (uploadId) =>
      !!(await services.db.selectFrom('uploads').select('id').where('multipart_id', '=', uploadId).executeTakeFirst()),
  );
  return stale.length;
}
