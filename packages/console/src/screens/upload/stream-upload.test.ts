/**
 * The mezzanine's upload while it is made, against scripted API calls (upload-calls.ts) and storage (fetch): parts
 * wait until released, go up at most four at a time, hold the muxer back when four are unsent, are sent again from
 * memory when the connection drops, and the upload completes with the real size; a connection gone for good is the
 * user's error; aborting deletes the parts. The real server and storage run in e2e/upload-conversion.spec.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPartStream } from './stream-upload.js';
import type { UploadCalls } from './upload-calls.js';
import type { UploadError } from './upload-error.js';
import type { UploadProgress } from './multipart-upload.js';

let calls: Array<{ op: string; vars: any }>;
/** Parts given up for good, as the stream tells them. */
let failures: UploadError[];
/** PUTs waiting for an answer: `ok()` stores the part, `drop()` fails it as a lost connection. */
let puts: Array<{ url: string; size: number; ok: () => void; drop: () => void }>;

/** The API as the flow's calls answer it, recording each call with its variables. */
const api: UploadCalls = {
  start: async (input) => {
    calls.push({ op: 'start', vars: { input } });
    return { key: 'uploads/m.mp4', uploadId: 'u1', partSize: 100, resumed: false };
  },
  signPart: async (input) => {
    calls.push({ op: 'sign', vars: { input } });
    return { url: `https://store/part/${input.partNumber}`, headers: {} };
  },
  complete: async (input, size) => void calls.push({ op: 'complete', vars: { input, size } }),
  abort: async (input) => void calls.push({ op: 'abort', vars: { input } }),
  listParts: () => Promise.reject(new Error('not used by the stream')),
  submit: () => Promise.reject(new Error('not used by the stream')),
  attachPhotoSource: () => Promise.reject(new Error('not used by the stream')),
};

beforeEach(() => {
  calls = [];
  failures = [];
  puts = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(
      (url: string, init: RequestInit) =>
        new Promise<Response>((resolve, reject) => {
          puts.push({
            url,
            size: (init.body as Uint8Array).length,
            ok: () => resolve(new Response(null, { status: 200, headers: { ETag: '"e"' } })),
            drop: () => reject(new TypeError('Failed to fetch')),
          });
        }),
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

const part = (n: number) => new Uint8Array(n) as Uint8Array<ArrayBuffer>;

async function stream(retryDelaysMs = [0, 0]) {
  const progress: UploadProgress[] = [];
  const s = await startPartStream({
    calls: api,
    fileName: 'IMG_1.mp4',
    lastModified: 1,
    limit: 4000,
    signal: new AbortController().signal,
    onProgress: (p) => progress.push(p),
    onFailure: (e) => failures.push(e),
    retryDelaysMs,
  });
  return { s, progress };
}

describe('startPartStream', () => {
  it('starts a size-at-end upload with the limit, holds parts until released, sends 4 at a time, completes with the real size', async () => {
    const { s, progress } = await stream();
    expect(calls[0]).toEqual({
      op: 'start',
      vars: { input: { extension: 'mp4', fileName: 'IMG_1.mp4', size: 4000, lastModified: 1, sizeAtEnd: true } },
    });
    await s.put(1, part(100));
    await s.put(2, part(100));
    await s.put(3, part(100));
    // Held: nothing signed or sent before the verdict releases them, and a fourth unsent part holds the muxer back.
    let fourthTaken = false;
    const fourth = s.put(4, part(100)).then(() => (fourthTaken = true));
    await Promise.resolve();
    expect(puts).toHaveLength(0);
    expect(fourthTaken).toBe(false);
    s.release();
    await vi.waitFor(() => expect(puts).toHaveLength(4));
    expect(calls.filter((c) => c.op === 'sign').map((c) => c.vars.input)).toEqual(
      [1, 2, 3, 4].map((n) => ({ key: 'uploads/m.mp4', uploadId: 'u1', partNumber: n, size: 100 })),
    );
    puts[0]!.ok();
    await fourth;
    // Three in flight and a fifth made: room again only when one more is stored.
    const fifth = s.put(5, part(42));
    for (const p of puts.slice(1)) p.ok();
    await fifth;
    const done = s.finish(442);
    await vi.waitFor(() => expect(puts).toHaveLength(5));
    expect(puts[4]!.size).toBe(42);
    puts[4]!.ok();
    await expect(done).resolves.toEqual({ key: 'uploads/m.mp4' });
    expect(calls.at(-1)).toEqual({
      op: 'complete',
      vars: { input: { key: 'uploads/m.mp4', uploadId: 'u1' }, size: 442 },
    });
    expect(progress.at(-1)).toMatchObject({ bytesUploaded: 442, bytesTotal: 442, percent: 100 });
  });

  it('sends a part again from memory when the connection drops, saying it is resuming, and completes', async () => {
    const { s, progress } = await stream();
    s.release();
    await s.put(1, part(100));
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    puts[0]!.drop();
    await vi.waitFor(() => expect(puts).toHaveLength(2));
    expect(progress.some((p) => p.resuming)).toBe(true);
    expect(puts[1]!.url).toBe('https://store/part/1');
    expect(puts[1]!.size).toBe(100);
    puts[1]!.ok();
    await expect(s.finish(100)).resolves.toEqual({ key: 'uploads/m.mp4' });
    expect(progress.at(-1)).toMatchObject({ resuming: false, bytesUploaded: 100 });
  });

  it('a connection gone for good fails the upload with the user’s words, and the muxer’s next part is refused', async () => {
    const { s } = await stream([0]);
    s.release();
    await s.put(1, part(100));
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    puts[0]!.drop();
    await vi.waitFor(() => expect(puts).toHaveLength(2));
    puts[1]!.drop();
    await expect(s.finish(100)).rejects.toMatchObject({
      name: 'UploadError',
      code: 'NETWORK',
      message: 'The connection was lost during the upload.',
    });
    expect(failures.map((e) => e.code)).toEqual(['NETWORK']);
    await expect(s.put(2, part(100))).rejects.toMatchObject({ code: 'NETWORK' });
    expect(calls.some((c) => c.op === 'complete')).toBe(false);
  });

  it('abort stops sending and deletes the parts', async () => {
    const { s } = await stream();
    await s.put(1, part(100));
    await s.abort();
    s.release();
    expect(puts).toHaveLength(0);
    expect(calls.at(-1)).toEqual({ op: 'abort', vars: { input: { key: 'uploads/m.mp4', uploadId: 'u1' } } });
  });
});
