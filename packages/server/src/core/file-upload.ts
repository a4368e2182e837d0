/** Reading an uploaded file (the GraphQL Upload scalar's value) into memory with a size bound. */
import type { Readable } from 'node:stream';
import type { FileUploadValue } from './auth.js';

/**
 * Reads an uploaded file into memory, at most `maxBytes`. Too large — counted here, or cut short by the multipart
 * parser's own limit — rejects with `tooLarge()` at once while the rest of the file is read and discarded, so the
 * request can finish and the answer go out.
 */
export function readFileUpload(file: FileUploadValue, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  const isSizeLimit = (err: Error) => /exceeds the \d+ byte size limit/.test(err.message);
  let stream: Readable & { truncated?: boolean };
  try {
    stream = file.createReadStream() as Readable & { truncated?: boolean };
  } catch (err) {
    return Promise.reject(err instanceof Error && isSizeLimit(err) ? tooLarge() : err);
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const refuse = (err: Error) => {
      if (refused) return;
      refused = true;
      chunks.length = 0;
      reject(err);
    };
    stream.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > maxBytes) refuse(tooLarge());
      else chunks.push(chunk);
    });
    stream.on('limit', () => refuse(tooLarge()));
    stream.on('end', () =>
      stream.truncated ? refuse(tooLarge()) : refused ? undefined : resolve(Buffer.concat(chunks)),
    );
    stream.on('error', (err) => refuse(isSizeLimit(err) ? tooLarge() : err));
  });
}
