/** Local-folder storage: files under DATA_DIR/files, served at /media/<key>, uploads through signed PUT URLs. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PresignedPut, Storage } from './storage.js';
import { isSafeKey } from './storage.js';

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

export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  constructor(private readonly opts: LocalStorageOptions) {}

  pathOf(key: string): string {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(this.opts.root, key);
  }

  /**
   * Writes to a temporary file and renames it into place once complete. `guard`, when given, decides whether the
   * complete file may replace the key: it is called with the rename and must run it (e.g. under a database lock)
   * or throw, which discards the temporary file (uploads: no write lands after the upload was submitted).
   */
  async put(key: string, body: Buffer | Readable, contentType: string, guard?: (commit: () => Promise<void>) => Promise<void>) {
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
      const meta = await fs.readFile(`${file}.meta`, 'utf8').then((t) => JSON.parse(t) as { contentType: string }).catch(() => null);
      return { size: st.size, contentType: meta?.contentType ?? 'application/octet-stream' };
    } catch {
      return null;
    }
  }

  async get(key: string, range?: { start: number; end?: number }) {
    const h = await this.head(key);
    if (!h) return null;
    const stream = createReadStream(this.pathOf(key), range ? { start: range.start, ...(range.end !== undefined ? { end: range.end } : {}) } : {});
    return { size: h.size, contentType: h.contentType, stream };
  }

  async delete(key: string) {
    const file = this.pathOf(key);
    await fs.rm(file, { force: true });
    await fs.rm(`${file}.meta`, { force: true });
  }

  async deletePrefix(prefix: string) {
    if (!isSafeKey(prefix.replace(/\/$/, ''))) throw new Error(`Unsafe storage prefix: ${prefix}`);
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

  async presignPut(key: string, opts: { contentType: string; maxBytes: number; expiresInSeconds: number }): Promise<PresignedPut> {
    const expires = Math.floor(Date.now() / 1000) + opts.expiresInSeconds;
    const sig = this.sign({ key, contentType: opts.contentType, maxBytes: opts.maxBytes, expires });
    const q = new URLSearchParams({ contentType: opts.contentType, max: String(opts.maxBytes), expires: String(expires), sig });
    return { url: `${this.opts.publicUrl}/upload/${key}?${q}`, headers: [{ key: 'Content-Type', value: opts.contentType }] };
  }
}
