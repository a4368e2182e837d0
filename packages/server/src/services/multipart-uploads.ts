/**
 * Resumable multipart uploads: the console (Uppy's S3 multipart client) starts an upload, asks for one
 * signed URL per part, PUTs the parts in parallel straight to storage (S3, or our own /upload-part route on the local
 * store), lists the parts already stored when it resumes, and completes; fileSubmitPreSignedUpload(key) then creates
 * the tour exactly as for a single-PUT upload. Picking the same file again (same user, name, size and last-modified
 * time) answers the same unfinished upload, so the parts already stored are skipped.
 *
 * An upload may also state its size at the end (`sizeAtEnd`: a video converted on the device goes up part by part as
 * it is made): `size` is then a limit, each part is signed at the size the client states (at most the part size), and
 * completion states the real size, which the server checks against the limit and against the parts storage holds
 * (every part but the last whole, none missing, none beyond the end). Such an upload is never resumed by picking the
 * file again (a new conversion need not make the same bytes): an unfinished one is swept like any other.
 */
import { createHash, randomUUID } from 'node:crypto';
import { ERROR_CODES, ERROR_TEXTS, fileExtensionSchema } from '@roomwalk/shared';
import type { LicenseRow } from '../db/types.js';
import type { AuthInfo } from '../core/auth.js';
import { AppError } from '../core/errors.js';
import { MultipartGoneError, type PresignedPut, type StoredPart } from '../storage/storage.js';
import type { Services } from './services.js';
import { serverNow } from '../core/clock.js';
import { loadEditableTour } from './tours.js';
import { openUploadRefusal, quotaRefusal, tooLargeText, UPLOAD_KEY, VIDEO_CONTENT_TYPES } from './uploads.js';

/** S3's limits: at most 10,000 parts, each at least 5 MiB but the last. */
const MAX_PARTS = 10_000;

export interface MultipartStartInput {
  extension: string;
  fileName: string;
  size: number;
  lastModified: number;
  /** `size` is a limit; the real size comes with completion. */
  sizeAtEnd?: boolean | null;
  /**
   * The upload is the original of this tour (made from a device-converted mezzanine), for its photos
   * (services/photo-source.ts): it creates no tour, so the tour quotas do not apply; the caller must be able to edit
   * it.
   */
  photoSourceFor?: string | null;
}

export interface MultipartUpload {
  key: string | null;
  uploadId: string | null;
  partSize: number;
  partCount: number;
  /** True when this answers an upload of the same file begun earlier (its stored parts are listed, not sent again). */
  resumed: boolean;
  /** Refusals as fileGetPreSignedUrl answers them: a code and the user's message. */
  error: string | null;
  message: string | null;
}

const refused = (error: string, message: string): MultipartUpload => ({
  key: null,
  uploadId: null,
  partSize: 0,
  partCount: 0,
  resumed: false,
  error,
  message,
});

/** The part size for a file: the setting, grown so no file needs more than MAX_PARTS parts. */
function partSizeFor(size: number, setting: number): number {
  return Math.max(setting, Math.ceil(size / MAX_PARTS));
}

/** Exact size of part n (1-based) of a file cut into parts of partSize. */
function expectedPartSize(size: number, partSize: number, partNumber: number): number {
  return Math.max(0, Math.min(partSize, size - (partNumber - 1) * partSize));
}

function fingerprintOf(userId: string, f: MultipartStartInput): string {
  return createHash('sha256')
    .update(JSON.stringify([userId, f.fileName, f.size, f.lastModified]))
    .digest('hex');
}

const NOT_FOUND = 'This upload was not found.';

/** The caller's own unsubmitted multipart upload; anyone else's answers "not found", never theirs. */
async function ownUpload(services: Services, auth: AuthInfo, key: string) {
  const row = UPLOAD_KEY.test(key)
    ? await services.db.selectFrom('uploads').selectAll().where('key', '=', key).executeTakeFirst()
    : undefined;
  if (!row || row.user_id !== auth.userId || !row.multipart_id || !row.expected_size || !row.part_size)
    throw new AppError(ERROR_CODES.NOT_FOUND, NOT_FOUND);
  if (row.submitted_at) throw new AppError(ERROR_CODES.CONFLICT, 'This upload was already submitted.');
  return { ...row, multipart_id: row.multipart_id, expected_size: row.expected_size, part_size: row.part_size };
}

const bytes = (n: number) => `${n.toLocaleString('en-US')} bytes`;

function partCountOf(u: { expected_size: number; part_size: number }): number {
  return Math.ceil(u.expected_size / u.part_size);
}

/**
 * What is wrong with an announced size, if anything: too large (however large, 1e300 included), empty, or not a size.
 */
function sizeRefusal(services: Services, size: number): string | null {
  if (size > services.config.UPLOAD_MAX_BYTES) return tooLargeText(services);
  if (size === 0) return ERROR_TEXTS.videoEmpty;
  if (!Number.isSafeInteger(size) || size < 0) return ERROR_TEXTS.videoSizeInvalid;
  return null;
}

/**
 * uploadMultipartStart: the same gates as fileGetPreSignedUrl (licence, extension, quotas), plus the size: above
 * UPLOAD_MAX_BYTES or empty is refused before a byte is sent. Refusals come back in error/message. A tour's photo
 * source (`photoSourceFor`) needs an active licence but no tour slot; its size counts against the bytes the user's
 * unfinished uploads may announce, like any upload's.
 */
export async function startMultipartUpload(
  services: Services,
  auth: AuthInfo,
  input: MultipartStartInput,
): Promise<MultipartUpload> {
  const license = await services.db
    .selectFrom('licenses')
    .selectAll()
    .where('company_id', '=', auth.companyId)
    .executeTakeFirst();
  if (input.photoSourceFor) await loadEditableTour(services, auth, input.photoSourceFor);
  const quota = await quotaRefusal(services.db, auth.companyId, license, serverNow(services));
  const gate = input.photoSourceFor && quota?.code !== ERROR_CODES.NO_ACTIVE_LICENSE ? null : quota;
  if (gate?.code === ERROR_CODES.NO_ACTIVE_LICENSE) return refused(gate.code, gate.message);
  const ext = fileExtensionSchema.safeParse(input.extension);
  if (!ext.success)
    return refused(ERROR_CODES.UPLOAD_INVALID, ext.error.issues[0]?.message ?? 'This file type is not supported.');
  if (gate) return refused(gate.code, gate.message);
  const size = sizeRefusal(services, input.size);
  if (size) return refused(ERROR_CODES.UPLOAD_INVALID, size);

  const sizeAtEnd = input.sizeAtEnd === true;
  const fingerprint = sizeAtEnd ? null : fingerprintOf(auth.userId, input);
  const earlier =
    fingerprint === null
      ? undefined
      : await services.db
          .selectFrom('uploads')
          .selectAll()
          .where('user_id', '=', auth.userId)
          .where('fingerprint', '=', fingerprint)
          .where('submitted_at', 'is', null)
          .where('extension', '=', ext.data)
          .orderBy('created_at', 'desc')
          .executeTakeFirst();
  if (earlier?.multipart_id && earlier.part_size && earlier.expected_size === input.size) {
    // Still known to storage (not swept)? A completed one has no parts left but its object is there.
    const alive = earlier.completed_at
      ? !!(await services.storage.head(earlier.key))
      : await services.storage.listParts(earlier.key, earlier.multipart_id).then(
          () => true,
          (e: unknown) => (e instanceof MultipartGoneError ? false : Promise.reject(e)),
        );
    if (alive) {
      return {
        key: earlier.key,
        uploadId: earlier.multipart_id,
        partSize: earlier.part_size,
        partCount: partCountOf({ expected_size: input.size, part_size: earlier.part_size }),
        resumed: true,
        error: null,
        message: null,
      };
    }
    await services.db.deleteFrom('uploads').where('id', '=', earlier.id).where('submitted_at', 'is', null).execute();
  }

  // A new upload (not the same file again) counts against the unfinished uploads the user may hold; a tour's original
  // is stored like any upload, so it counts too.
  const open = await openUploadRefusal(services, auth, license as LicenseRow, input.size);
  if (open) return refused(ERROR_CODES.UPLOAD_INVALID, open);

  const contentType = VIDEO_CONTENT_TYPES[ext.data] ?? 'application/octet-stream';
  const key = `uploads/${randomUUID()}.${ext.data}`;
  const partSize = partSizeFor(input.size, services.config.UPLOAD_PART_BYTES);
  const uploadId = await services.storage.createMultipart(key, contentType);
  try {
    await services.db
      .insertInto('uploads')
      .values({
        key,
        company_id: auth.companyId,
        user_id: auth.userId,
        extension: ext.data,
        size: null,
        tour_id: null,
        multipart_id: uploadId,
        expected_size: input.size,
        part_size: partSize,
        fingerprint,
        size_at_end: sizeAtEnd,
      })
      .execute();
  } catch (err) {
    await services.storage.abortMultipart(key, uploadId).catch(() => undefined);
    throw err;
  }
  return {
    key,
    uploadId,
    partSize,
    partCount: Math.ceil(input.size / partSize),
    resumed: false,
    error: null,
    message: null,
  };
}

/**
 * The size a part is signed at. An upload of known size: that part's exact size (a size the client states must be it).
 * An upload whose size comes at the end: the size the client states, at most a whole part and never past the limit.
 */
function signedPartSize(
  u: { expected_size: number; part_size: number; size_at_end: boolean },
  partNumber: number,
  stated: number | null | undefined,
): number {
  const exact = expectedPartSize(u.expected_size, u.part_size, partNumber);
  if (!u.size_at_end) {
    if (stated != null && stated !== exact)
      throw new AppError(
        ERROR_CODES.UPLOAD_INVALID,
        `Part ${partNumber} of this upload has ${bytes(exact)}, not ${bytes(stated)}.`,
      );
    return exact;
  }
  if (stated == null)
    throw new AppError(
      ERROR_CODES.UPLOAD_INVALID,
      `Say how large part ${partNumber} is: this upload states its size at the end.`,
    );
  if (!Number.isSafeInteger(stated) || stated < 1 || stated > exact) {
    throw new AppError(
      ERROR_CODES.UPLOAD_INVALID,
      `Part ${partNumber} of this upload can have 1 to ${bytes(exact)}, not ${bytes(stated)}.`,
    );
  }
  return stated;
}

/** uploadMultipartSignPart: a signed URL for one part, bound to that part's exact size. */
export async function signMultipartPart(
  services: Services,
  auth: AuthInfo,
  key: string,
  uploadId: string,
  partNumber: number,
  size?: number | null,
): Promise<PresignedPut> {
  const u = await ownUpload(services, auth, key);
  if (u.multipart_id !== uploadId) throw new AppError(ERROR_CODES.NOT_FOUND, NOT_FOUND);
  if (u.completed_at) throw new AppError(ERROR_CODES.CONFLICT, 'This upload is already complete.');
  const count = partCountOf(u);
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > count) {
    throw new AppError(
      ERROR_CODES.UPLOAD_INVALID,
      `This upload has parts 1 to ${count}; there is no part ${partNumber}.`,
    );
  }
  return services.storage.presignPart(key, uploadId, partNumber, {
    size: signedPartSize(u, partNumber, size),
    expiresInSeconds: services.config.UPLOAD_URL_TTL_SECONDS,
  });
}

/** uploadMultipartParts: the parts stored so far (a completed upload answers all of them). */
export async function listMultipartParts(
  services: Services,
  auth: AuthInfo,
  key: string,
  uploadId: string,
): Promise<StoredPart[]> {
  const u = await ownUpload(services, auth, key);
  if (u.multipart_id !== uploadId) throw new AppError(ERROR_CODES.NOT_FOUND, NOT_FOUND);
  if (u.completed_at) {
    return Array.from({ length: partCountOf(u) }, (_, i) => ({
      partNumber: i + 1,
      size: expectedPartSize(u.expected_size, u.part_size, i + 1),
      etag: 'complete',
    }));
  }
  try {
    // Only whole parts count: a store that kept a part cut off mid-way (s3rver does; S3 does not) has it sent again.
    // Where the size comes at the end, any part up to a whole one is listed: the client knows what it sent.
    const parts = await services.storage.listParts(key, uploadId);
    if (u.size_at_end) return parts.filter((p) => p.size > 0 && p.size <= u.part_size);
    return parts.filter((p) => p.size === expectedPartSize(u.expected_size, u.part_size, p.partNumber));
  } catch (err) {
    if (err instanceof MultipartGoneError)
      throw new AppError(ERROR_CODES.NOT_FOUND, 'This upload has expired. Please upload the video again.');
    throw err;
  }
}

/**
 * uploadMultipartComplete: every part 1..N stored at its exact size (what storage holds, not what the client says),
 * joined into the upload's key; under the upload row's lock, so it never races a submit. Completing again answers
 * the same. An upload whose size comes at the end states it here (`size`): within the limit announced at start, and
 * the parts stored must make exactly that size (every part but the last whole, no part beyond the end).
 */
export async function completeMultipartUpload(
  services: Services,
  auth: AuthInfo,
  key: string,
  uploadId: string,
  finalSize?: number | null,
): Promise<{ key: string; size: number }> {
  const row = await ownUpload(services, auth, key);
  if (row.multipart_id !== uploadId) throw new AppError(ERROR_CODES.NOT_FOUND, NOT_FOUND);
  if (row.size_at_end && !row.completed_at) {
    if (finalSize == null)
      throw new AppError(
        ERROR_CODES.UPLOAD_INVALID,
        'Say how large the video is: this upload states its size at the end.',
      );
    const refusal = sizeRefusal(services, finalSize);
    if (refusal) throw new AppError(ERROR_CODES.UPLOAD_INVALID, refusal);
    if (finalSize > row.expected_size)
      throw new AppError(
        ERROR_CODES.UPLOAD_INVALID,
        `The video is larger than the upload announced (at most ${bytes(row.expected_size)}).`,
      );
  } else if (finalSize != null && finalSize !== row.expected_size) {
    throw new AppError(
      ERROR_CODES.UPLOAD_INVALID,
      'The uploaded video does not have the size announced. Please try again.',
    );
  }
  // From here on the upload is checked as one of known size: the size stated now.
  const u = row.size_at_end && !row.completed_at ? { ...row, expected_size: finalSize! } : row;
  return services.db.transaction().execute(async (trx) => {
    const locked = await trx
      .selectFrom('uploads')
      .selectAll()
      .where('id', '=', u.id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (locked.submitted_at) throw new AppError(ERROR_CODES.CONFLICT, 'This upload was already submitted.');
    if (locked.completed_at && locked.size !== null) return { key, size: locked.size };
    let stored: StoredPart[];
    try {
      stored = await services.storage.listParts(key, uploadId);
    } catch (err) {
      if (err instanceof MultipartGoneError)
        throw new AppError(ERROR_CODES.NOT_FOUND, 'This upload has expired. Please upload the video again.');
      throw err;
    }
    const byNumber = new Map(stored.map((p) => [p.partNumber, p]));
    const count = partCountOf(u);
    const missing: number[] = [];
    const wrong: number[] = [];
    for (let n = 1; n <= count; n++) {
      const p = byNumber.get(n);
      if (!p) missing.push(n);
      else if (p.size !== expectedPartSize(u.expected_size, u.part_size, n)) wrong.push(n);
    }
    const beyond = stored.filter((p) => p.partNumber > count).map((p) => p.partNumber);
    const list = (ns: number[]) =>
      ns.length > 5 ? `${ns.slice(0, 5).join(', ')} and ${ns.length - 5} more` : ns.join(', ');
    if (beyond.length > 0) {
      throw new AppError(
        ERROR_CODES.UPLOAD_INVALID,
        `The video was said to have ${bytes(u.expected_size)}, but part${beyond.length > 1 ? 's' : ''} ${list(beyond)} ${beyond.length > 1 ? 'lie' : 'lies'} beyond its end. Please try again.`,
      );
    }
    if (missing.length > 0) {
      throw new AppError(
        ERROR_CODES.UPLOAD_INVALID,
        `The video did not finish uploading: part${missing.length > 1 ? 's' : ''} ${list(missing)} of ${count} ${missing.length > 1 ? 'are' : 'is'} missing. Please try again.`,
      );
    }
    if (wrong.length > 0) {
      throw new AppError(
        ERROR_CODES.UPLOAD_INVALID,
        `Part${wrong.length > 1 ? 's' : ''} ${list(wrong)} of the video ${wrong.length > 1 ? 'have' : 'has'} the wrong size. Please try again.`,
      );
    }
    const parts = Array.from({ length: count }, (_, i) => byNumber.get(i + 1)!);
    const { size } = await services.storage.completeMultipart(key, uploadId, parts);
    if (size !== u.expected_size) {
      await services.storage.deleteUpload(key);
      throw new AppError(
        ERROR_CODES.UPLOAD_INVALID,
        'The uploaded video does not have the size announced. Please try again.',
      );
    }
    await trx
      .updateTable('uploads')
      .set({ completed_at: new Date(), size, expected_size: size, size_at_end: false })
      .where('id', '=', u.id)
      .execute();
    return { key, size };
  });
}

/** uploadMultipartAbort: the user cancelled; the parts are deleted and the upload forgotten. */
export async function abortMultipartUpload(
  services: Services,
  auth: AuthInfo,
  key: string,
  uploadId: string,
): Promise<void> {
  const u = await ownUpload(services, auth, key);
  if (u.multipart_id !== uploadId) throw new AppError(ERROR_CODES.NOT_FOUND, NOT_FOUND);
  await services.storage.abortMultipart(key, uploadId);
  await services.storage.deleteUpload(key);
  await services.db.deleteFrom('uploads').where('id', '=', u.id).where('submitted_at', 'is', null).execute();
}
