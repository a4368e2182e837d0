/**
 * GraphQL multipart uploads (mercurius-upload, graphql-upload-minimal underneath): what keeps a refused upload from
 * hanging. mercurius-upload answers only once the whole request body has been read, and busboy stops reading while a
 * file stream is unread — so a mutation refused before it reads its file (anonymous, wrong plan, invalid input, 401)
 * used to wait forever. `registerUploadDrain` (registered before mercurius-upload, so its onSend runs first) discards
 * every file nobody read, including files that arrive after the answer is ready. Resolvers read files through
 * `readFileUpload`, which keeps draining (never destroys the stream) when it refuses one.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { FileUploadValue } from '../core/auth.js';

/** graphql-upload-minimal's Upload: `promise` resolves with the file when its part arrives. */
interface UploadLike {
  promise: Promise<FileUploadValue>;
  resolve: (file: FileUploadValue) => void;
  reject: (err: unknown) => void;
}

const isUpload = (v: unknown): v is UploadLike =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as UploadLike).resolve === 'function' &&
  typeof (v as UploadLike).reject === 'function' &&
  (v as UploadLike).promise instanceof Promise;

/** Every Upload placed in the operations (variables, batched operations), bounded in depth and count. */
function uploadsIn(value: unknown, found: UploadLike[] = [], depth = 0, seen = new Set<unknown>()): UploadLike[] {
  if (!value || typeof value !== 'object' || depth > 12 || seen.has(value) || found.length > 16) return found;
  seen.add(value);
  if (isUpload(value)) {
    found.push(value);
    return found;
  }
  for (const v of Array.isArray(value) ? value : Object.values(value)) uploadsIn(v, found, depth + 1, seen);
  return found;
}

/** Reads and discards a file's stream if nobody took it (createReadStream throws once a resolver has). */
function discard(file: FileUploadValue): void {
  let stream: Readable;
  try {
    stream = file.createReadStream() as Readable;
  } catch {
    return; // taken by a resolver (which drains it through readFileUpload) or already failed
  }
  stream.on('error', () => undefined);
  stream.resume();
}

export async function registerUploadDrain(app: FastifyInstance): Promise<void> {
  app.addHook('onSend', async (req) => {
    if (!(req as unknown as { mercuriusUploadMultipart?: boolean }).mercuriusUploadMultipart) return;
    for (const upload of uploadsIn(req.body)) void upload.promise.then(discard, () => undefined);
  });
}
