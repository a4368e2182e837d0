/** S3-compatible storage (AWS S3, MinIO, R2, …): used when S3_BUCKET is set; uploads go straight to the bucket. */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  UploadPartCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { HeadObjectCommandOutput, ListMultipartUploadsCommandOutput } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { PresignedPut, Storage, StoredObject, StoredPart } from './storage.js';
import { isCanonicalKey } from './media-key.js';
import { MultipartGoneError, UploadChangedError } from './storage.js';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** Endpoint of a non-AWS store (MinIO, s3rver, R2); AWS when absent. */
  endpoint?: string | undefined;
  forcePathStyle: boolean;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** Public base of object URLs (a CDN in front of the bucket); defaults to the bucket's own URL. */
  publicBaseUrl?: string | undefined;
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

function isNoSuchUpload(err: unknown): boolean {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchUpload' || e?.Code === 'NoSuchUpload' || e?.$metadata?.httpStatusCode === 404;
}

function isPreconditionFailed(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'PreconditionFailed' || e?.$metadata?.httpStatusCode === 412;
}

/** Presigned PUTs write here; submit copies the checked object to the upload's own key (sealUpload). */
const STAGING_PREFIX = 'staging/';
export const stagingKey = (key: string) => `${STAGING_PREFIX}${key}`;

export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly #publicBase: string;

  constructor(private readonly opts: S3StorageOptions) {
    this.client = new S3Client({
      region: opts.region,
      ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
      forcePathStyle: opts.forcePathStyle,
      ...(opts.accessKeyId && opts.secretAccessKey
        ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } }
        : {}),
      // Checksums only where S3 requires them: presigned PUTs must not demand a checksum the browser cannot send,
      // and older S3-compatible stores do not know the newer checksum headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    const base =
      opts.publicBaseUrl ??
      (opts.endpoint
        ? opts.forcePathStyle
          ? `${opts.endpoint.replace(/\/$/, '')}/${opts.bucket}`
          : opts.endpoint.replace(/^(https?:\/\/)/, `$1${opts.bucket}.`).replace(/\/$/, '')
        : `https://${opts.bucket}.s3.${opts.region}.amazonaws.com`);
    this.#publicBase = base.replace(/\/$/, '');
  }

  #check(key: string): string {
    if (!isCanonicalKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    return key;
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<{ size: number }> {
    if (Buffer.isBuffer(body)) {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.opts.bucket,
          Key: this.#check(key),
          Body: body,
          ContentType: contentType,
          ContentLength: body.length,
        }),
      );
      return { size: body.length };
    }
    // A single PUT needs the length up front; spool a stream of unknown length to a temporary file first.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-s3-'));
    try {
      const file = path.join(dir, 'body');
      await pipeline(body, createWriteStream(file));
      return await this.putFile(key, file, contentType);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  async putFile(key: string, filePath: string, contentType: string): Promise<{ size: number }> {
    const { size } = await fs.stat(filePath);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.opts.bucket,
        Key: this.#check(key),
        Body: createReadStream(filePath),
        ContentType: contentType,
        ContentLength: size,
      }),
    );
    return { size };
  }

  async download(key: string, filePath: string): Promise<void> {
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.opts.bucket, Key: this.#check(key) }));
    const tmp = `${filePath}.${randomUUID()}.part`;
    try {
      await pipeline(res.Body as Readable, createWriteStream(tmp));
      await fs.rename(tmp, filePath);
    } finally {
      await fs.rm(tmp, { force: true });
    }
  }

  async get(key: string, range?: { start: number; end?: number }): Promise<StoredObject | null> {
    try {
      const h = await this.head(key);
      if (!h) return null;
      const res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.opts.bucket,
          Key: this.#check(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
        }),
      );
      return { size: h.size, contentType: h.contentType, stream: res.Body as Readable };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async head(key: string): Promise<{ size: number; contentType: string } | null> {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.opts.bucket, Key: this.#check(key) }));
      return { size: Number(res.ContentLength ?? 0), contentType: res.ContentType ?? 'application/octet-stream' };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: this.#check(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const p = prefix.endsWith('/') ? prefix : `${prefix}/`;
    this.#check(p.replace(/\/$/, ''));
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.opts.bucket,
          Prefix: p,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      const keys = (page.Contents ?? []).map((o) => o.Key).filter((k): k is string => !!k);
      if (keys.length > 0) {
        await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.opts.bucket,
            Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
          }),
        );
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  publicUrl(key: string): string {
    return `${this.#publicBase}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  /**
   * A real S3 pre-signed PUT bound to content type and expiry, to the upload's staging key (see sealUpload). S3 cannot
   * bound the size of a presigned PUT (only a POST policy can), so the size is checked when the upload is submitted.
   */
  async presignPut(
    key: string,
    opts: { contentType: string; maxBytes: number; expiresInSeconds: number },
  ): Promise<PresignedPut> {
    const command = new PutObjectCommand({
      Bucket: this.opts.bucket,
      Key: this.#check(stagingKey(key)),
      ContentType: opts.contentType,
    });
    const url = await getSignedUrl(this.client, command, {
      expiresIn: opts.expiresInSeconds,
      signableHeaders: new Set(['content-type']),
    });
    return { url, headers: [{ key: 'Content-Type', value: opts.contentType }] };
  }

  /**
   * A presigned PUT cannot be revoked, so a slow one may finish after submit. It writes the staging key only; here
   * the staged object is checked (HEAD: size, type, ETag) and copied to `key` on condition that its ETag is still the
   * one checked (x-amz-copy-source-if-match), then the staging object is deleted. A PUT finishing later changes the
   * staging key, never `key`, which is all processing reads. Nothing staged: `key` as sealed before (a submit refused
   * after sealing, e.g. by a quota gate, may be retried), or null.
   */
  async sealUpload(
    key: string,
    check: (stored: { size: number; contentType: string }) => void,
  ): Promise<{ size: number; contentType: string } | null> {
    const staged = stagingKey(this.#check(key));
    for (let attempt = 0; attempt < 3; attempt++) {
      let head: HeadObjectCommandOutput;
      try {
        head = await this.client.send(new HeadObjectCommand({ Bucket: this.opts.bucket, Key: staged }));
      } catch (err) {
        if (!isNotFound(err)) throw err;
        const sealed = await this.head(key);
        if (sealed) check(sealed);
        return sealed;
      }
      const stored = {
        size: Number(head.ContentLength ?? 0),
        contentType: head.ContentType ?? 'application/octet-stream',
      };
      check(stored);
      try {
        await this.client.send(
          new CopyObjectCommand({
            Bucket: this.opts.bucket,
            Key: key,
            CopySource: `${this.opts.bucket}/${staged.split('/').map(encodeURIComponent).join('/')}`,
            ...(head.ETag ? { CopySourceIfMatch: head.ETag } : {}),
            MetadataDirective: 'COPY',
          }),
        );
      } catch (err) {
        // Replaced between HEAD and COPY (a PUT still running): check the newer object instead.
        if (isPreconditionFailed(err) || isNotFound(err)) continue;
        throw err;
      }
      await this.delete(staged);
      return stored;
    }
    throw new UploadChangedError(`upload ${key} kept changing while it was submitted`);
  }

  async deleteUpload(key: string): Promise<void> {
    await this.delete(stagingKey(key));
    await this.delete(key);
  }

  async sweepStagedUploads(before: Date): Promise<number> {
    let token: string | undefined;
    let removed = 0;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.opts.bucket,
          Prefix: STAGING_PREFIX,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      const keys = (page.Contents ?? [])
        .filter((o) => o.Key && o.LastModified && o.LastModified.getTime() < before.getTime())
        .map((o) => o.Key!);
      if (keys.length > 0) {
        await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.opts.bucket,
            Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        removed += keys.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return removed;
  }

  // ---- Multipart uploads: S3's own, written straight to the upload's key (an UploadId cannot be completed twice, and
  // its part URLs stop working once it is completed or aborted, so no staging key is needed here).

  async createMultipart(key: string, contentType: string): Promise<string> {
    const res = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.opts.bucket, Key: this.#check(key), ContentType: contentType }),
    );
    if (!res.UploadId) throw new Error('S3 answered no UploadId');
    return res.UploadId;
  }

  /** The part's size is signed (Content-Length is a signed header), so S3 refuses a body of another size. */
  async presignPart(
    key: string,
    uploadId: string,
    partNumber: number,
    opts: { size: number; expiresInSeconds: number },
  ): Promise<PresignedPut> {
    const command = new UploadPartCommand({
      Bucket: this.opts.bucket,
      Key: this.#check(key),
      UploadId: uploadId,
      PartNumber: partNumber,
      ContentLength: opts.size,
    });
    const url = await getSignedUrl(this.client, command, {
      expiresIn: opts.expiresInSeconds,
      signableHeaders: new Set(['content-length']),
    });
    return { url, headers: [] };
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[]> {
    const parts: StoredPart[] = [];
    let marker: string | undefined;
    try {
      do {
        const page = await this.client.send(
          new ListPartsCommand({
            Bucket: this.opts.bucket,
            Key: this.#check(key),
            UploadId: uploadId,
            ...(marker ? { PartNumberMarker: marker } : {}),
          }),
        );
        for (const p of page.Parts ?? []) {
          if (p.PartNumber) parts.push({ partNumber: p.PartNumber, size: Number(p.Size ?? 0), etag: p.ETag ?? '' });
        }
        marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
      } while (marker);
    } catch (err) {
      if (isNoSuchUpload(err)) throw new MultipartGoneError(`unknown multipart upload ${uploadId}`);
      throw err;
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async completeMultipart(key: string, uploadId: string, parts: StoredPart[]): Promise<{ size: number }> {
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.opts.bucket,
          Key: this.#check(key),
          UploadId: uploadId,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
        }),
      );
    } catch (err) {
      if (isNoSuchUpload(err)) throw new MultipartGoneError(`unknown multipart upload ${uploadId}`);
      throw err;
    }
    const head = await this.head(key);
    if (!head) throw new Error(`completed multipart upload ${uploadId} left no object`);
    return { size: head.size };
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({ Bucket: this.opts.bucket, Key: this.#check(key), UploadId: uploadId }),
      );
    } catch (err) {
      if (!isNoSuchUpload(err)) throw err;
    }
  }

  async sweepMultipart(before: Date, keep: (uploadId: string) => Promise<boolean>): Promise<number> {
    let removed = 0;
    let keyMarker: string | undefined;
    let idMarker: string | undefined;
    do {
      let page: ListMultipartUploadsCommandOutput;
      try {
        page = await this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.opts.bucket,
            Prefix: 'uploads/',
            ...(keyMarker ? { KeyMarker: keyMarker } : {}),
            ...(idMarker ? { UploadIdMarker: idMarker } : {}),
          }),
        );
      } catch (err) {
        // A store without the listing (s3rver; some S3-compatible stores): uploads with a row are still aborted by
        // the row sweep, and a bucket lifecycle rule (AbortIncompleteMultipartUpload) covers the rest.
        if ((err as { name?: string })?.name === 'NotImplemented') return removed;
        throw err;
      }
      for (const u of page.Uploads ?? []) {
        if (
          !u.Key ||
          !u.UploadId ||
          !u.Initiated ||
          u.Initiated.getTime() >= before.getTime() ||
          (await keep(u.UploadId))
        )
          continue;
        await this.abortMultipart(u.Key, u.UploadId);
        removed++;
      }
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      idMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
    return removed;
  }
}
