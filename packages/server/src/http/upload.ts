/**
 * PUT /upload/<key>: the local store's answer to an S3 pre-signed PUT. The URL's signature binds key, content type,
 * size limit and expiry; the body streams to storage and nothing partial is ever left behind. 200 with an empty body.
 */
import { ByteLimit } from '../core/byte-limit.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '@roomwalk/shared';
import { refuse } from './refuse.js';
import { LocalStorage } from '../storage/local-storage.js';
import { UPLOAD_KEY } from '../services/uploads.js';
import type { Services } from '../services/services.js';
import type { ErrorCode } from '@roomwalk/shared';
import { registerUploadPartRoute } from './upload-multipart.js';

class TooLarge extends Error {}
class AlreadySubmitted extends Error {}

/**
 * CORS: the upload URL is itself the credential (signed, short-lived, one key), exactly like an S3 pre-signed URL,
 * so any origin may use it; the console may run on another origin than the API (development, a CDN).
 */
function cors(req: FastifyRequest, reply: FastifyReply): void {
  reply.header('Access-Control-Allow-Origin', req.headers.origin ?? '*');
  reply.header('Vary', 'Origin');
}

export async function registerUploadRoutes(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    // Take the body as a raw stream, whatever its type; the handler bounds and stores it.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    // Parts of multipart uploads on the local store.
    registerUploadPartRoute(scope, services);
    scope.options('/upload/*', answerPreflight);
    scope.put('/upload/*', (req, reply) => putUpload(services, req, reply));
  });
}

async function answerPreflight(req: FastifyRequest, reply: FastifyReply) {
  cors(req, reply);
  reply.header('Access-Control-Allow-Methods', 'PUT, OPTIONS');
  reply.header('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'content-type');
  reply.header('Access-Control-Max-Age', '600');
  return reply.code(204).send();
}

/** Why a PUT is refused: the code, the message, and a status other than the code's. */
type Refusal = readonly [code: ErrorCode, message: string, status?: 403 | 413 | 415];
const refuseWith = (reply: FastifyReply, [code, message, status]: Refusal) =>
  refuse(reply, code, message, status === undefined ? undefined : { status });

const TOO_LARGE: Refusal = [ERROR_CODES.UPLOAD_INVALID, 'The video is too large.', 413];
const EMPTY: Refusal = [ERROR_CODES.UPLOAD_INVALID, 'The file is empty.'];
const SUBMITTED: Refusal = [ERROR_CODES.CONFLICT, 'This upload was already submitted.'];

/** The body of a signed upload link, bounded and stored whole (or not at all) while its upload is unsubmitted. */
async function putUpload(services: Services, req: FastifyRequest, reply: FastifyReply) {
  cors(req, reply);
  const storage = services.storage;
  if (!(storage instanceof LocalStorage)) return refuse(reply, ERROR_CODES.NOT_FOUND, 'Not found.');
  const link = checkUploadLink(services, storage, req);
  if ('refusal' in link) return refuseWith(reply, link.refusal);
  const upload = await services.db
    .selectFrom('uploads')
    .select(['id', 'submitted_at'])
    .where('key', '=', link.key)
    .executeTakeFirst();
  if (!upload) return refuse(reply, ERROR_CODES.NOT_FOUND, 'This upload was not found.');
  if (upload.submitted_at) return refuseWith(reply, SUBMITTED);
  const refused = await storeBody(services, storage, req, upload.id, link);
  if (refused) return refuseWith(reply, refused);
  return reply.code(200).send();
}

interface UploadLink {
  key: string;
  contentType: string;
  /** The most bytes this PUT may send: the link's and the server's limit. */
  limit: number;
}

/** The link's key, type and size limit once its signature holds and the request matches it. */
function checkUploadLink(
  services: Services,
  storage: LocalStorage,
  req: FastifyRequest,
): UploadLink | { refusal: Refusal } {
  const key = (req.params as { '*': string })['*'];
  const q = req.query as Record<string, string | undefined>;
  const contentType = q.contentType ?? '';
  const maxBytes = Number(q.max);
  const expires = Number(q.expires);
  const invalid: Refusal = [ERROR_CODES.UPLOAD_INVALID, 'This upload link is not valid.', 403];
  if (
    !UPLOAD_KEY.test(key) ||
    !q.sig ||
    !contentType ||
    !Number.isSafeInteger(maxBytes) ||
    !Number.isSafeInteger(expires)
  )
    return { refusal: invalid };
  const signed = { key, contentType, maxBytes, expires };
  if (!storage.verify(signed, q.sig, 0)) return { refusal: invalid };
  if (!storage.verify(signed, q.sig))
    return { refusal: [ERROR_CODES.UPLOAD_INVALID, 'This upload link has expired. Please try again.', 403] };
  const sent = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (sent !== contentType.toLowerCase())
    return { refusal: [ERROR_CODES.UPLOAD_INVALID, `The upload must be sent as ${contentType}.`, 415] };
  const limit = Math.min(maxBytes, services.config.UPLOAD_MAX_BYTES);
  const declared = req.headers['content-length'] !== undefined ? Number(req.headers['content-length']) : null;
  if (declared !== null && declared > limit) return { refusal: TOO_LARGE };
  if (declared === 0) return { refusal: EMPTY };
  return { key, contentType, limit };
}

/**
 * Streams the body into storage within its limit; null once stored and its size recorded. LocalStorage.put writes a
 * temporary file and renames it only when complete; on any error the part is removed. The rename happens under the
 * upload row's lock and only while it is unsubmitted: a slow PUT that finishes after fileSubmitPreSignedUpload is
 * discarded, so the bytes processed are the bytes submitted (submit locks too).
 */
async function storeBody(
  services: Services,
  storage: LocalStorage,
  req: FastifyRequest,
  uploadId: string,
  { key, contentType, limit }: UploadLink,
): Promise<Refusal | null> {
  const counter = new ByteLimit(limit, () => new TooLarge('too large'));
  // Remember why the stream failed (it may fail before storage starts reading it).
  let failure: Error | null = null;
  counter.on('error', (e) => (failure ??= e));
  req.raw.on('aborted', () => counter.destroy(new Error('upload aborted')));
  req.raw.pipe(counter);
  try {
    const { size } = await storage.put(key, counter, contentType, (commit) =>
      services.db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('uploads')
          .select('submitted_at')
          .where('id', '=', uploadId)
          .forUpdate()
          .executeTakeFirst();
        if (!row || row.submitted_at) throw new AlreadySubmitted('already submitted');
        await commit();
      }),
    );
    if (size === 0) {
      await storage.delete(key);
      return EMPTY;
    }
    await services.db.updateTable('uploads').set({ size }).where('id', '=', uploadId).execute();
    return null;
  } catch (err) {
    req.raw.unpipe(counter);
    if (err instanceof AlreadySubmitted) return SUBMITTED;
    if (err instanceof TooLarge || (failure as Error | null) instanceof TooLarge) return TOO_LARGE;
    req.log.warn({ err, key }, 'upload failed');
    return [ERROR_CODES.UPLOAD_INVALID, 'The upload did not complete. Please try again.'];
  }
}
