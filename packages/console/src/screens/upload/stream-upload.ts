/**
 * The mezzanine's upload while it is being made (docs/upload-conversion.md): a multipart upload that states its size
 * at the end (uploadMultipartStart with sizeAtEnd, the original's size as the limit), fed part by part by the
 * conversion worker. Uppy's client (multipart-upload.ts) uploads a file whose bytes all exist; here they arrive as
 * the muxer writes them, so each part is signed at its own size and PUT as soon as it is full, PARALLEL_PARTS at a
 * time. A part that fails is sent again from memory (the retry waits of a file upload, then its resume waits: a dropped
 * connection resumes); parts stay in memory only until stored, and `put` waits while MAX_AHEAD parts are unsent, which
 * slows the conversion to the uplink. Completion states the real size. A tab closed mid-way leaves an unfinished upload
 * that is never resumed (a new conversion need not make the same bytes) and is swept by the server.
 */
import { ERROR_CODES } from '@roomwalk/shared';
import {
  PARALLEL_PARTS,
  PART_RETRY_DELAYS_MS,
  RESUME_DELAYS_MS,
  speedMeter,
  wait,
  type UploadProgress,
} from './multipart-upload.js';
import { UploadError } from './upload-error.js';
import type { UploadCalls } from './upload-calls.js';

/** Parts made but not yet stored before the muxer is held (at 8 MiB parts: 32 MiB of memory at most). */
const MAX_AHEAD = 4;
const CONNECTION_LOST = 'The connection was lost during the upload.';

export interface PartStream {
  key: string;
  partSize: number;
  /** Takes part n (every part but the last is partSize bytes); resolves when there is room for another. */
  put(partNumber: number, bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  /**
   * Starts sending (parts given so far wait until then: the race with the original's upload measures a free uplink).
   */
  release(): void;
  /** After the last part: waits until every part is stored, completes with the real size, answers the key. */
  finish(size: number): Promise<{ key: string }>;
  /** Stops sending and deletes the parts (the upload is forgotten). */
  abort(): Promise<void>;
}

export interface PartStreamOptions {
  calls: UploadCalls;
  /** The mezzanine's name and the original's last-modified time. */
  fileName: string;
  lastModified: number;
  /** The most the mezzanine may have: the original's size. */
  limit: number;
  signal: AbortSignal;
  onProgress: (p: UploadProgress) => void;
  /** Told at once when a part could not be stored after every retry (the connection gone for good): the upload ends. */
  onFailure?: (e: UploadError) => void;
  /** For tests: the waits before each new attempt at a failed part. */
  retryDelaysMs?: number[];
}

export async function startPartStream(o: PartStreamOptions): Promise<PartStream> {
  const s = await o.calls.start({
    extension: 'mp4',
    fileName: o.fileName,
    size: o.limit,
    lastModified: o.lastModified,
    sizeAtEnd: true,
  });
  const ref = { key: s.key, uploadId: s.uploadId };
  const delays = o.retryDelaysMs ?? [...PART_RETRY_DELAYS_MS, ...RESUME_DELAYS_MS];

  const stop = new AbortController();
  const signal = AbortSignal.any([o.signal, stop.signal]);
  const queue: Array<{ n: number; bytes: Uint8Array<ArrayBuffer> }> = [];
  let inFlight = 0;
  let released = false;
  let failure: UploadError | null = null;
  let made = 0;
  let stored = 0;
  let resuming = false;
  let finalSize: number | null = null;
  const measure = speedMeter();
  /** Wakes whoever waits for room, for the end, or for a failure. */
  let waiters: Array<() => void> = [];
  const wake = () => {
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  const until = async (ready: () => boolean) => {
    while (!ready() && !failure && !signal.aborted) await new Promise<void>((r) => waiters.push(r));
    if (signal.aborted) throw new DOMException('Upload cancelled', 'AbortError');
    if (failure) throw failure;
  };
  signal.addEventListener('abort', wake, { once: true });

  const report = () => {
    const bytesTotal = finalSize ?? Math.max(made, 1);
    const bytesPerSecond = measure(stored);
    o.onProgress({
      bytesUploaded: stored,
      bytesTotal,
      percent: Math.min(100, Math.floor((stored / bytesTotal) * 100)),
      bytesPerSecond,
      secondsLeft:
        bytesPerSecond && finalSize !== null ? Math.max(0, Math.round((finalSize - stored) / bytesPerSecond)) : null,
      resuming,
    });
  };

  /** One attempt at part n: signed at its size, PUT; a refusal the server words (expired, gone) ends the upload. */
  const attempt = async (n: number, bytes: Uint8Array<ArrayBuffer>) => {
    const p = await o.calls.signPart({ ...ref, partNumber: n, size: bytes.length }).catch((e: unknown) => {
      throw e instanceof UploadError && e.code !== 'NETWORK' ? Object.assign(e, { final: true }) : e;
    });
    const res = await fetch(p.url, { method: 'PUT', body: bytes, headers: p.headers, signal });
    if (res.status === 404)
      throw Object.assign(
        new UploadError(ERROR_CODES.UPLOAD_INVALID, 'This upload has expired. Please upload the video again.'),
        { final: true },
      );
    if (!res.ok) throw new UploadError('NETWORK', CONNECTION_LOST);
  };

  const send = async (n: number, bytes: Uint8Array<ArrayBuffer>) => {
    for (let i = 0; ; i++) {
      try {
        await attempt(n, bytes);
        break;
      } catch (e) {
        if (signal.aborted) return;
        if ((e as { final?: boolean }).final || i >= delays.length) {
          failure = e instanceof UploadError ? e : new UploadError('NETWORK', CONNECTION_LOST);
          o.onFailure?.(failure);
          wake();
          return;
        }
        resuming = true;
        report();
        await wait(delays[i]!, signal).catch(() => undefined);
        if (signal.aborted) return;
      }
    }
    stored += bytes.length;
    resuming = false;
    report();
  };

  const pump = () => {
    while (released && !failure && !signal.aborted && inFlight < PARALLEL_PARTS && queue.length > 0) {
      const { n, bytes } = queue.shift()!;
      inFlight++;
      void send(n, bytes).finally(() => {
        inFlight--;
        pump();
        wake();
      });
    }
  };

  return {
    key: ref.key,
    partSize: s.partSize,
    async put(partNumber, bytes) {
      if (failure) throw failure;
      made += bytes.length;
      queue.push({ n: partNumber, bytes });
      pump();
      await until(() => queue.length + inFlight < MAX_AHEAD);
    },
    release() {
      released = true;
      report();
      pump();
    },
    async finish(size) {
      finalSize = size;
      report();
      await until(() => queue.length === 0 && inFlight === 0);
      await o.calls.complete(ref, size);
      return { key: ref.key };
    },
    async abort() {
      stop.abort();
      queue.length = 0;
      await o.calls.abort(ref);
    },
  };
}
