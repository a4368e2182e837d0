/**
 * Reel render time by source: the same reel (seed, segments, end card) rendered from the upload itself, as reels were
 * made before, and from the tour's 720p clips, as they are now, for each source in the same run. The clips are cut
 * first the way processing cuts them (that is processing's work, not the reel's, and is not counted). Face blur is
 * off in both (a processed tour's clips carry it already).
 *
 *   npm run bench:reel -w packages/server -- [--clips-only] [source.mp4 ...]
 * With no sources: a 60 s 4K 60 fps HEVC 10-bit one (a flat picture with a moving box, x265 ultrafast, so that it can
 * be made on a small machine) and a 60 s 1080p 30 fps H.264 one. --clips-only skips the reel from the upload (the old
 * way: for a 60 s 4K source it decodes 4K three times over). Each figure is printed with the load average beside it,
 * and what the reel adds to a tour's readiness: the reel from the clips, against the 60 s goal.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CLIP_FPS, RENDITIONS, segmentArgs, x264Args } from '../src/media/encoding.js';
import { ffmpegBinaries } from '../src/media/ffmpeg-binaries.js';
import { runProcess } from '../src/media/run-process.js';
import { probeDuration } from '../src/services/ai/ffmpeg.js';
import { renderReel, type ReelClips } from '../src/services/reels/render-reel.js';
import { timed } from './timing.js';

const load = async () => (await fs.readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
const work = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-bench-reel-'));

async function ffmpeg(args: string[]): Promise<void> {
  const r = await runProcess(ffmpegBinaries().ffmpeg, ['-hide_banner', '-v', 'error', '-y', ...args], {
    timeoutMs: 60 * 60_000,
    maxOutputBytes: 1024 ** 2,
  }).done;
  if (r.code !== 0) throw new Error(`ffmpeg failed: ${r.stderr.slice(-500)}`);
}

async function defaultSources(): Promise<string[]> {
  const uhd = path.join(work, 'uhd60-hevc10-60s.mp4');
  const color = 'color=c=0x336699:size=3840x2160:rate=60:duration=60';
  const box = "drawbox=x='mod(t*400\\,3400)':y=800:w=400:h=400:color=white:t=fill";
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    color,
    '-vf',
    box,
    '-c:v',
    'libx265',
    '-preset',
    'ultrafast',
    '-x265-params',
    'log-level=error',
    '-b:v',
    '2M',
    '-pix_fmt',
    'yuv420p10le',
    '-tag:v',
    'hvc1',
    uhd,
  ]);
  console.log(`made ${path.basename(uhd)} (load ${await load()})`);
  const fhd = path.join(work, 'fhd30-60s.mp4');
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1920x1080:rate=30:duration=60',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    fhd,
  ]);
  return [uhd, fhd];
}

/** The high rendition cut into 36-frame clips at the tour frame rate, as processing makes them. */
async function clipsOf(source: string, dir: string): Promise<ReelClips> {
  await fs.mkdir(dir, { recursive: true });
  const { duration, width, height } = await probeDuration(source);
  const size =
    width >= height
      ? RENDITIONS.high.landscape
      : { width: RENDITIONS.high.landscape.height, height: RENDITIONS.high.landscape.width };
  const list = path.join(dir, 'clips.csv');
  const frames = Math.ceil(duration * CLIP_FPS);
  await ffmpeg([
    '-i',
    source,
    '-vf',
    `fps=${CLIP_FPS},scale=${size.width}:${size.height}`,
    ...x264Args(RENDITIONS.high),
    ...segmentArgs(frames, list),
    path.join(dir, 'clip-%04d.mp4'),
  ]);
  const files = (await fs.readFile(list, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => path.join(dir, l.split(',')[0]!));
  const counts: number[] = [];
  for (const f of files) counts.push(Math.max(1, Math.round((await probeDuration(f)).duration * CLIP_FPS)));
  return { fps: CLIP_FPS, frameCounts: counts, file: async (i) => files[i]! };
}

const agent = { name: 'Thandi Nkosi', contact: '082 123 4567', company: 'Bench Realty', logoFile: null };
const GOAL_SECONDS = 60;

try {
  const args = process.argv.slice(2);
  const clipsOnly = args.includes('--clips-only');
  const given = args.filter((a) => a !== '--clips-only');
  const sources = given.length ? given : await defaultSources();
  const rows: string[] = [];
  for (const [i, source] of sources.entries()) {
    const info = await probeDuration(source);
    const clips = await clipsOf(source, path.join(work, `clips-${i}`));
    const render = (from: string | ReelClips, name: string) => async () => {
      const out = path.join(work, `${name}-${i}`);
      await fs.mkdir(out, { recursive: true });
      return renderReel({ source: from, workDir: out, seed: 7, markers: [], agent, blurFaces: false });
    };
    const name = `${path.basename(source)} (${info.width}x${info.height}, ${info.duration.toFixed(0)} s)`;
    const after = await timed(render(clips, 'clips'));
    const loadAfter = await load();
    const goal =
      after.timing.wall <= GOAL_SECONDS ? `within the ${GOAL_SECONDS} s goal` : `over the ${GOAL_SECONDS} s goal`;
    let row = `${name}: from the clips ${after.timing.wall.toFixed(1)} s wall / ${after.timing.cpu.toFixed(1)} s CPU (load ${loadAfter}), ${goal}`;
    if (!clipsOnly) {
      const before = await timed(render(source, 'upload'));
      const loadBefore = await load();
      row += `; from the upload ${before.timing.wall.toFixed(1)} s wall / ${before.timing.cpu.toFixed(1)} s CPU (load ${loadBefore}); ratio ${(after.timing.wall / before.timing.wall).toFixed(2)} wall, ${(after.timing.cpu / before.timing.cpu).toFixed(2)} CPU`;
    }
    rows.push(row);
    console.log(rows.at(-1));
  }
} finally {
  await fs.rm(work, { recursive: true, force: true });
}
