/** Local-folder storage: files under DATA_DIR/files, served at /media/<key>, uploads through signed PUT URLs. */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ByteLimit } from '../core/byte-limit.js';
import type { PresignedPut, Storage, StoredPart } from './storage.js';
import { isCanonicalKey } from './media-key.js';
import { MultipartGoneError } from './storage.js';

export interface LocalStorageOptions {
  root: string;
  publicUrl: string;
  signingSecret: string;
}

export interface UploadSignature {
  key: string;
  contentType: string;
  maxBytes: number;
  expires: number;
}

/** A local part URL's signed fields: the part of one multipart upload, of exactly `size` bytes. */
export interface PartSignature {
  key: string;
  uploadId: string;
  partNumber: number;
  size: number;
  expires: number;
}

/** A part's body was not exactly the size its URL was signed for. */
export class PartSizeError extends Error {
  constructor(readonly tooLarge: boolean) {
    super(tooLarge ? 'part too large' : 'part too small');
  }
}

const MULTIPART_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const partName = (n: number) => `part-${String(n).padStart(5, '0')}`;

export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  constructor(private readonly opts: LocalStorageOptions) {}

  pathOf(key: string): string {
    if (!isCanonicalKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(this.opts.root, key);
  }

  /**
   * Writes to a temporary file and renames it into place once complete. `guard`, when given, decides whether the
   * complete file may replace the key: it is called with the rename and must run it (e.g. under a database lock)
   * or throw, which discards the temporary file (uploads: no write lands after the upload was submitted).
   */
  async put(
    key: string,
    body: Buffer | Readable,
    contentType: string,
    guard?: (commit: () => Promise<void>) => Promise<void>,
  ) {
    const file = this.pathOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.part`;
    const commit = async () => {
      await fs.rename(tmp, file);
      await fs.writeFile(`${file}.meta`, JSON.stringify({ contentType }));
    };
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(tmp));
      if (guard) await guard(commit);
      else await commit();
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
    return { size: (await fs.stat(file)).size };
  }

  async putFile(key: string, filePath: string, contentType: string) {
    return this.put(key, createReadStream(filePath), contentType);
  }

  async download(key: string, filePath: string) {
    await fs.copyFile(this.pathOf(key), filePath);
  }

  async head(key: string) {
    try {
      const file = this.pathOf(key);
      const st = await fs.stat(file);
      const meta = await fs
        .readFile(`${file}.meta`, 'utf8')
        .then((t) => JSON.parse(t) as { contentType: string })
        .catch(() => null);
      return { size: st.size, contentType: meta?.contentType ?? 'application/octet-stream' };
    } catch {
      return null;
    }
  }

  async get(key: string, range?: { start: number; end?: number }) {
    const h = await this.head(key);
    if (!h) return null;
    const stream = createReadStream(
      this.pathOf(key),
      range ? { start: range.start, ...(range.end !== undefined ? { end: range.end } : {}) } : {},
    );
    return { size: h.size, contentType: h.contentType, stream };
  }

  async delete(key: string) {
    const file = this.pathOf(key);
    await fs.rm(file, { force: true });
    await fs.rm(`${file}.meta`, { force: true });
  }

  async deletePrefix(prefix: string) {
    if (!isCanonicalKey(prefix.replace(/\/$/, ''))) throw new Error(`Unsafe storage prefix: ${prefix}`);
    await fs.rm(path.join(this.opts.root, prefix), { recursive: true, force: true });
  }

  publicUrl(key: string): string {
    return `${this.opts.publicUrl}/media/${key}`;
  }

  sign(s: UploadSignature): string {
    return createHmac('sha256', this.opts.signingSecret)
      .update(`${s.key}\n${s.contentType}\n${s.maxBytes}\n${s.expires}`)
      .digest('base64url');
  }

  /** Checks an upload URL's signature and expiry. */
  verify(s: UploadSignature, signature: string, nowMs = Date.now()): boolean {
    const expected = Buffer.from(this.sign(s));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given) && s.expires * 1000 > nowMs;
  }

  /**
   * The local PUT (http/upload.ts) renames its complete file into place under the upload's row lock and only while the
   * upload is unsubmitted, so once submit holds that lock, the file it reads here is the one processed: no staging.
   */
  async sealUpload(key: string, check: (stored: { size: number; contentType: string }) => void) {
    const stored = await this.head(key);
    if (!stored) return null;
    check(stored);
    return stored;
  }

  async deleteUpload(key: string) {
    await this.delete(key);
  }

  /** Nothing is staged here: a PUT's partial file is removed when it fails or comes too late. */
  async sweepStagedUploads(_before: Date) {
    return 0;
  }

  async presignPut(
    key: string,
    opts: { contentType: string; maxBytes: number; expiresInSeconds: number },
  ): Promise<PresignedPut> {
    const expires = Math.floor(Date.now() / 1000) + opts.expiresInSeconds;
    const sig = this.sign({ key, contentType: opts.contentType, maxBytes: opts.maxBytes, expires });
    const q = new URLSearchParams({
      contentType: opts.contentType,
      max: String(opts.maxBytes),
      expires: String(expires),
      sig,
    });
    return {
      url: `${this.opts.publicUrl}/upload/${key}?${q}`,
      headers: [{ key: 'Content-Type', value: opts.contentType }],
    };
  }

  // ---- Multipart uploads: parts under multipart/<uploadId>/, written by PUT /upload-part (http/upload-multipart.ts)

  #multipartDir(uploadId: string): string {
    if (!MULTIPART_ID.test(uploadId)) throw new MultipartGoneError(`unknown multipart upload ${uploadId}`);
    return path.join(this.opts.root, 'multipart', uploadId);
  }

  async #multipartMeta(key: string, uploadId: string): Promise<{ key: string; contentType: string }> {
    const meta = await fs
      .readFile(path.join(this.#multipartDir(uploadId), 'upload.json'), 'utf8')
      .then((t) => JSON.parse(t) as { key: string; contentType: string })
      .catch(() => null);
    if (!meta || meta.key !== key) throw new MultipartGoneError(`unknown multipart upload ${uploadId}`);
    return meta;
  }

  async createMultipart(key: string, contentType: string): Promise<string> {
    this.pathOf(key);
    const uploadId = randomUUID();
    const dir = this.#multipartDir(uploadId);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'upload.json'), JSON.stringify({ key, contentType }));
    return uploadId;
  }

  signPart(s: PartSignature): string {
    return createHmac('sha256', this.opts.signingSecret)
      .update(`part\n${s.key}\n${s.uploadId}\n${s.partNumber}\n${s.size}\n${s.expires}`)
      .digest('base64url');
  }

  /** Checks a part URL's signature and expiry. */
  verifyPart(s: PartSignature, signature: string, nowMs = Date.now()): boolean {
    const expected = Buffer.from(this.signPart(s));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given) && s.expires * 1000 > nowMs;
  }

  async presignPart(
    key: string,
    uploadId: string,
    partNumber: number,
    opts: { size: number; expiresInSeconds: number },
  ): Promise<PresignedPut> {
    const expires = Math.floor(Date.now() / 1000) + opts.expiresInSeconds;
    const signed = { key, uploadId, partNumber, size: opts.size, expires };
    const q = new URLSearchParams({
      key,
      size: String(opts.size),
      expires: String(expires),
      sig: this.signPart(signed),
    });
    return { url: `${this.opts.publicUrl}/upload-part/${uploadId}/${partNumber}?${q}`, headers: [] };
  }

  /**
   * Stores one part: exactly `size` bytes (PartSizeError otherwise), written to a temporary file and renamed into
   * place, so a dropped connection leaves no part behind and a part sent again replaces the earlier one whole.
   */
  async putPart(key: string, uploadId: string, partNumber: number, size: number, body: Readable): Promise<StoredPart> {
    await this.#multipartMeta(key, uploadId);
    const file = path.join(this.#multipartDir(uploadId), partName(partNumber));
    const tmp = `${file}.${randomUUID()}.part`;
    const md5 = createHash('md5');
    const meter = new ByteLimit(
      size,
      () => new PartSizeError(true),
      (chunk) => md5.update(chunk),
    );
    try {
      await pipeline(body, meter, createWriteStream(tmp));
      if (meter.bytes !== size) throw new PartSizeError(false);
      const etag = `"${md5.digest('hex')}"`;
      await fs.writeFile(`${file}.etag`, etag);
      await fs.rename(tmp, file);
      return { partNumber, size, etag };
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[]> {
    await this.#multipartMeta(key, uploadId);
    const dir = this.#multipartDir(uploadId);
    const parts: StoredPart[] = [];
    for (const name of await fs.readdir(dir)) {
      const m = /^part-(\d{5})$/.exec(name);
      if (!m) continue;
      const file = path.join(dir, name);
      const [st, etag] = await Promise.all([fs.stat(file), fs.readFile(`${file}.etag`, 'utf8').catch(() => '')]);
      parts.push({ partNumber: Number(m[1]), size: st.size, etag });
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async completeMultipart(key: string, uploadId: string, parts: StoredPart[]): Promise<{ size: number }> {
    const meta = await this.#multipartMeta(key, uploadId);
    const dir = this.#multipartDir(uploadId);
    const files = parts.map((p) => path.join(dir, partName(p.partNumber)));
    async function* joined() {
      for (const f of files) yield* createReadStream(f);
    }
    const stored = await this.put(key, Readable.from(joined()), meta.contentType);
    await fs.rm(dir, { recursive: true, force: true });
    return stored;
  }

  async abortMultipart(_key: string, uploadId: string): Promise<void> {
    if (!MULTIPART_ID.test(uploadId)) return;
    await fs.rm(this.#multipartDir(uploadId), { recursive: true, force: true });
  }

  async sweepMultipart(before: Date, keep: (uploadId: string) => Promise<boolean>): Promise<number> {
    const root = path.join(this.opts.root, 'multipart');
    const ids = await fs.readdir(root).catch(() => [] as string[]);
    let removed = 0;
    for (const id of ids) {
      if (!MULTIPART_ID.test(id)) continue;
      const st = await fs.stat(path.join(root, id)).catch(() => null);
      if (!st || st.mtime.getTime() >= before.getTime() || (await keep(id))) continue;
      await fs.rm(path.join(root, id), { recursive: true, force: true });
      removed++;
    }
    return removed;
  }
}
