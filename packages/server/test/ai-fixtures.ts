/**
 * Helpers of the AI, reel and photo tests: processed tours made directly from generated videos, a stand-in AI image
 * service.
 */
import fs from 'node:fs/promises';
import { expect, vi } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import sharp from 'sharp';
import type { App } from '../src/app.js';
import { multiSceneVideo } from './support/ai-videos.js';
import type { SeededUser } from './helpers/seed.js';

const SCENE_SECONDS = [4, 5, 3, 4];

let videoPromise: Promise<{ file: string; boundaries: number[] }> | undefined;
/** One 16 s four-room video (640x360) per test process. */
export function roomsVideo() {
  videoPromise ??= (async () =>
    multiSceneVideo(SCENE_SECONDS, { dir: await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-ai-test-')) }))();
  return videoPromise;
}

/**
 * A PROCESSED tour whose source video is the generated rooms video (or `source`); clip rows as the pipeline would write
 * them.
 */
export async function processedTour(
  app: App,
  owner: SeededUser,
  o: { status?: string; title?: string; source?: string } = {},
): Promise<string> {
  const file = o.source ?? (await roomsVideo()).file;
  const db = app.services.db;
  const tour = await db
    .insertInto('tours')
    .values({
      company_id: owner.company.id,
      owner_id: owner.user.id,
      title: o.title ?? 'Sunny Flat',
      status: o.status ?? 'PROCESSED',
      video_key: 'pending',
      fps: 15,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const key = `tours/${tour.id}/source.mp4`;
  await app.services.storage.putFile(key, file, 'video/mp4');
  const total = SCENE_SECONDS.reduce((a, b) => a + b, 0) * 15;
  const clips = Array.from({ length: Math.ceil(total / 36) }, (_, i) => ({
    tour_id: tour.id,
    index: i,
    frame_count: Math.min(36, total - i * 36),
    duration: Math.min(36, total - i * 36) / 15,
    high_key: `tours/${tour.id}/v1/clips/${i}-high.mp4`,
    low_key: `tours/${tour.id}/v1/clips/${i}-low.mp4`,
  }));
  await db.insertInto('clips').values(clips).execute();
  await db.updateTable('tours').set({ video_key: key }).where('id', '=', tour.id).execute();
  return tour.id;
}

/**
 * The work folders this process makes with `prefix` from now on (through fs.mkdtemp, as the jobs make theirs), and
 * which of them are still there. Only this process's: another test file's job beside it (the other Vitest worker)
 * makes folders of the same name in the same temp folder.
 */
function trackTempDirs(prefix: string): { dirs: string[]; left: () => Promise<string[]>; restore: () => void } {
  const dirs: string[] = [];
  const mkdtemp = fs.mkdtemp.bind(fs) as (p: string) => Promise<string>;
  const spy = vi.spyOn(fs, 'mkdtemp').mockImplementation((async (p: string) => {
    const dir = await mkdtemp(p);
    if (path.basename(p).startsWith(prefix)) dirs.push(dir);
    return dir;
  }) as unknown as typeof fs.mkdtemp);
  const exists = (d: string) =>
    fs.stat(d).then(
      () => true,
      () => false,
    );
  return {
    dirs,
    left: async () =>
      (await Promise.all(dirs.map(async (d) => ((await exists(d)) ? d : null)))).filter((d) => d !== null),
    restore: () => spy.mockRestore(),
  };
}

/**
 * Runs `job` and checks that every work folder it (or the app's own worker, running the same queued job beside it)
 * made with `prefix` is gone once their work ends.
 */
export async function expectNoWorkDirLeft(prefix: string, job: () => Promise<unknown>): Promise<void> {
  const temps = trackTempDirs(prefix);
  try {
    await job();
  } finally {
    temps.restore();
  }
  expect(temps.dirs.length, `the job made a ${prefix}* folder`).toBeGreaterThan(0);
  await expect.poll(temps.left, { timeout: 60_000 }).toEqual([]);
}

/** A loopback AI image service with the /inpainting contract: answers the image inverted (sharp negate). */
export async function startImageService(): Promise<{
  url: string;
  requests: Array<{ prompt: string; width: string; height: string; type: string }>;
  failNext: (status: number) => void;
  close: () => Promise<void>;
}> {
  const requests: Array<{ prompt: string; width: string; height: string; type: string }> = [];
  let fail = 0;
  const server = http.createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const form = await new Request('http://x/', {
        method: 'POST',
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks),
      }).formData();
      const image = form.get('image') as File | null;
      requests.push({
        prompt: String(form.get('prompt')),
        width: String(form.get('width')),
        height: String(form.get('height')),
        type: image?.type ?? '',
      });
      if (req.url !== '/inpainting' || !image) {
        res.writeHead(404).end('not found');
        return;
      }
      if (fail) {
        res.writeHead(fail, { 'content-type': 'text/plain' }).end('model overloaded');
        fail = 0;
        return;
      }
      const out = await sharp(Buffer.from(await image.arrayBuffer()))
        .negate({ alpha: false })
        .jpeg()
        .toBuffer();
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(out);
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext: (s) => (fail = s),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
