/**
 * The measurements of bench:processing (bench/processing.ts), one function each: a bare full decode, and the steps of
 * processing a source one ffmpeg command or call at a time, each step's cost being its command's minus the one before
 * it (decode; decode + scale; decode + scale + one rendition's encode), plus the whole processing with and without
 * the face pass and storing its clips.
 */
import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildNormaliseGraph, RENDITIONS, renditionSize, segmentArgs, x264Args } from '../src/media/encoding.js';
import { ffmpegBinaries } from '../src/media/ffmpeg-binaries.js';
import { planTranscode } from '../src/media/transcode-plan.js';
import type { faceBlurFilter } from '../src/media/blur-faces.js';
import type * as Media from '../src/media/process-video.js';
import { planSource } from '../src/media/source-frames.js';
import { storeClips } from '../src/jobs/processing-steps.js';
import type { Services } from '../src/services/services.js';
import { LocalStorage } from '../src/storage/local-storage.js';
import type { BenchSource } from './processing-sources.js';

const run = promisify(execFile);
const ffmpeg = () => ffmpegBinaries().ffmpeg;

/** The full-decode baseline: every frame decoded, nothing else (`ffmpeg -i src -f null -`). */
export async function bareDecode(src: BenchSource): Promise<void> {
  await run(ffmpeg(), ['-v', 'error', '-i', src.path, '-map', '0:v:0', '-f', 'null', '-']);
}

/** The product's decoder input (frames it skips, rotation left to the graph, stored timestamps) for a probed source. */
function productInput(src: BenchSource, probe: Media.ProbeResult): string[] {
  const plan = planSource(probe);
  return ['-v', 'error', ...plan.inputArgs, '-i', src.path, ...plan.outputArgs];
}

/** The product's normalising graph for the whole source: the transcode plan's own graph input. */
function graph(src: BenchSource, probe: Media.ProbeResult): string {
  return buildNormaliseGraph(planTranscode({ input: src.path, workDir: '' }, probe, { first: 0 }).graphInput);
}

/** Decoding as the product decodes (non-reference frames skipped where it skips them), nothing after it. */
export async function productDecode(src: BenchSource, probe: Media.ProbeResult): Promise<void> {
  await run(ffmpeg(), [...productInput(src, probe), '-map', `0:${probe.streamIndex}`, '-f', 'null', '-']);
}

/** Decoding and the normalising graph (15 fps, scale/crop to 720p, tone map, rotation): the encoders' input. */
export async function productScale(src: BenchSource, probe: Media.ProbeResult): Promise<void> {
  await run(ffmpeg(), [
    ...productInput(src, probe),
    '-filter_complex',
    graph(src, probe),
    '-map',
    '[out]',
    '-f',
    'null',
    '-',
  ]);
}

/** Decode, normalise and encode one rendition into its clips (the product's x264 and segment settings). */
export async function productEncode(
  src: BenchSource,
  probe: Media.ProbeResult,
  which: 'high' | 'low',
  dir: string,
): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const lo = renditionSize(RENDITIONS.low, probe.portrait);
  const g =
    which === 'high'
      ? graph(src, probe)
      : `${graph(src, probe).replace(/\[out\]$/, '')},scale=${lo.width}:${lo.height}[out]`;
  await run(ffmpeg(), [
    ...productInput(src, probe),
    '-filter_complex',
    g,
    '-map',
    '[out]',
    ...x264Args(RENDITIONS[which]),
    ...segmentArgs(src.seconds * 15 + 36, join(dir, 'list.csv')),
    join(dir, 'c-%05d.mp4'),
  ]);
  await rm(dir, { recursive: true, force: true });
}

/**
 * The whole processing as the job runs it, with the face pass (the tour's default) or without; `blur` is the face
 * filter of the same media core (BENCH_MEDIA_DIR compares both).
 */
export function pipeline(
  media: typeof Media,
  blur: typeof faceBlurFilter,
  src: BenchSource,
  probe: Media.ProbeResult,
  faces: boolean,
  dir: string,
): Promise<Media.ProcessVideoResult> {
  return media.processVideo({
    input: src.path,
    workDir: dir,
    probe,
    ...(faces ? { frameFilter: blur() } : {}),
  });
}

/** Storing a result's clips and thumbnail as the job does (local disk storage under `root`). */
export async function store(result: Media.ProcessVideoResult, root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
  const storage = new LocalStorage({ root, publicUrl: 'http://localhost/media', signingSecret: 'bench' });
  await storeClips({ storage } as unknown as Services, 'tours/bench/v1/', result.clips);
  await storage.putFile('tours/bench/v1/thumbnail.jpg', result.thumbnailPath, 'image/jpeg');
  await rm(root, { recursive: true, force: true });
}
