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
  /**
   * A signed, expiring PUT URL for a direct upload of `key`, bounded to maxBytes. The URL may write elsewhere than
   * `key` (S3: a staging key): what `key` holds is decided by sealUpload.
   */
  presignPut(
    key: string,
    opts: { contentType: string; maxBytes: number; expiresInSeconds: number },
  ): Promise<PresignedPut>;
  /**
   * At submit, under the upload's row lock: answers what arrived for the direct upload of `key` (null when nothing
   * did), after `check` has seen it (throw to refuse: nothing is sealed then), and from then on `key` holds exactly
   * those bytes, whatever PUT to the upload URL finishes later (the bytes processed are the bytes
   * submitted). Sealing again answers what was sealed before unless new bytes arrived meanwhile.
   */
  sealUpload(
    key: string,
    check: (stored: { size: number; contentType: string }) => void,
  ): Promise<{ size: number; contentType: string } | null>;
  /** Removes everything a direct upload of `key` left: the object and any staged bytes. */
  deleteUpload(key: string): Promise<void>;
  /**
   * Removes staged upload bytes last written before `before` (abandoned, or a PUT that finished after submit); answers
   * how many.
   */
  sweepStagedUploads(before: Date): Promise<number>;

  // Multipart uploads: S3's protocol, on S3 itself or served by our own routes on the local store.
  /** Starts a multipart upload of `key`; answers its id. */
  createMultipart(key: string, contentType: string): Promise<string>;
  /** A signed, expiring PUT URL for one part of exactly `size` bytes; its answer carries the part's ETag. */
  presignPart(
    key: string,
    uploadId: string,
    partNumber: number,
    opts: { size: number; expiresInSeconds: number },
  ): Promise<PresignedPut>;
  /**
   * The parts stored so far, by part number. Throws MultipartGoneError when the upload is unknown (aborted, completed).
   */
  listParts(key: string, uploadId: string): Promise<StoredPart[]>;
  /** Joins the parts (in order) into `key` and ends the multipart upload; answers the object's size. */
  completeMultipart(key: string, uploadId: string, parts: StoredPart[]): Promise<{ size: number }>;
  /** Ends a multipart upload and deletes its parts; an unknown upload is not an error. */
  abortMultipart(key: string, uploadId: string): Promise<void>;
  /**
   * Aborts multipart uploads started before `before` that `keep` does not name (their row is gone); answers how many.
   */
  sweepMultipart(before: Date, keep: (uploadId: string) => Promise<boolean>): Promise<number>;
}

export interface StoredPart {
  partNumber: number;
  size: number;
  etag: string;
}

/** The multipart upload no longer exists in storage (aborted, swept or already completed). */
export class MultipartGoneError extends Error {}

/** sealUpload: the upload kept changing between its check and its seal (a PUT to it still running). */
export class UploadChangedError extends Error {}
