/** File storage: a local folder served by our own routes (default) or an S3-compatible store (S3_* settings). */
import type { Readable } from 'node:stream';

export interface PresignedPut {
  url: string;
  headers: Array<{ key: string; value: string }>;
}

export interface StoredObject {
  size: number;
  contentType: string;
  stream: Readable;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  /** Writes bytes or a stream under key. */
  put(key: string, body: Buffer | Readable, contentType: string): Promise<{ size: number }>;
  /** Copies a local file into the store. */
  putFile(key: string, filePath: string, contentType: string): Promise<{ size: number }>;
  /** Downloads an object to a local file (used by workers). */
  download(key: string, filePath: string): Promise<void>;
  get(key: string, range?: { start: number; end?: number }): Promise<StoredObject | null>;
  head(key: string): Promise<{ size: number; contentType: string } | null>;
  delete(key: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  /** An absolute URL anyone can GET (media is public by unguessable key, like a CDN). */
  publicUrl(key: string): string;
  /** A signed, expiring PUT URL for a direct upload bounded to maxBytes. */
  presignPut(key: string, opts: { contentType: string; maxBytes: number; expiresInSeconds: number }): Promise<PresignedPut>;
}

/** Keys are ours alone: lower-case segments of safe characters, no dot-dot. */
export function isSafeKey(key: string): boolean {
  return /^[a-z0-9][a-z0-9/_.-]{0,300}$/i.test(key) && !key.includes('..') && !key.includes('//');
}
