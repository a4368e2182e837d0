/**
 * Renders a vertical 1080x1920 H.264 reel from a landscape (or portrait) walkthrough in ONE ffmpeg run: a few
 * segments around the markers (or evenly spread), each a smooth eased pan of a 9:16 window across the frame, the
 * room name as a caption, then an end card with the agent's name, contact, company and logo. The seed picks the
 * segment offsets, the pan directions and the card colour, so each reel of a tour differs.
 *
 * The pictures come from the tour's own 720p clips when it has them (ReelClips): H.264 at the tour's frame rate,
 * already blurred where the owner asked, so a reel costs the same whatever the upload was. Reading the upload instead
 * decodes it once per segment, all segments at once, so the cost follows the upload (docs/results.md, Reel).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { probeDuration, runFfmpeg } from '../ai/ffmpeg.js';
import { ffmpegBinaries } from '../../media/ffmpeg-binaries.js';
import { pipeFrames, yuv420pBytes } from '../../media/frame-pipe.js';
import { runProcess } from '../../media/run-process.js';
import { endCardGraph, esc, findFont, type ReelAgent } from './end-card.js';
import { END_CARD_SECONDS, REEL_FPS, REEL_SIZE, planSegments, type ReelSegment } from './reel-plan.js';

export const REEL_PROVIDER = 'roomwalk-ffmpeg';

/** The tour's high-rendition clips, in order: consecutive frames at `fps`, fetched to local files on demand. */
export interface ReelClips {
  fps: number;
  frameCounts: number[];
  file(index: number): Promise<string>;
}

export interface RenderReelInput {
  /** The uploaded video's local path, or the tour's clips. */
  source: string | ReelClips;
  workDir: string;
  seed: number;
  markers: Array<{ time: number; name: string }>;
  agent: ReelAgent;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal | undefined;
  preset?: string;
  /** Privacy: blur faces in the rendered frames before they are encoded (media/blur-faces.ts). */
  blurFaces?: boolean;
}

export interface RenderedReel {
  videoPath: string;
  thumbnailPath: string;
  duration: number;
  segments: ReelSegment[];
}

/** The one ffmpeg render: its inputs and the filter graph that makes `[out]` of them. */
interface ReelGraph {
  inputs: string[];
  filters: string;
}

export async function renderReel(o: RenderReelInput): Promise<RenderedReel> {
  const font = findFont();
  const { duration, width, height } =
    typeof o.source === 'string' ? await probeDuration(o.source) : await clipsInfo(o.source);
  const segments = planSegments(duration, o.markers, o.seed);
  const body = await segmentsGraph(o, segments, font, width / height > 9 / 16);
  const card = await endCardGraph(o.agent, font, o.workDir, o.seed, segments.length);
  const concat = `${segments.map((_, i) => `[s${i}]`).join('')}[end]concat=n=${segments.length + 1}:v=1:a=0,format=yuv420p[out]`;
  const graph = {
    inputs: [...body.inputs, ...card.inputs],
    filters: [...body.filters, ...card.filters, concat].join(';'),
  };
  const total = segments.reduce((s, x) => s + x.length, 0) + END_CARD_SECONDS;
  const videoPath = path.join(o.workDir, 'reel.mp4');
  if (o.blurFaces) await encodeWithFaceBlur(o, graph, total, videoPath);
  else await encodeReel(o, graph, total, videoPath);
  const thumbnailPath = path.join(o.workDir, 'thumbnail.jpg');
  await reelThumbnail(videoPath, thumbnailPath, o.signal);
  return { videoPath, thumbnailPath, duration: total, segments };
}

/** Each segment's input (the upload's span, or the clips that hold it) and its filter chain, `[s<i>]`. */
async function segmentsGraph(
  o: RenderReelInput,
  segments: ReelSegment[],
  font: string,
  landscape: boolean,
): Promise<{ inputs: string[]; filters: string[] }> {
  const inputs: string[] = [];
  const filters: string[] = [];
  for (const [i, s] of segments.entries()) {
    inputs.push(
      ...(typeof o.source === 'string'
        ? ['-ss', s.start.toFixed(3), '-t', s.length.toFixed(3), '-i', o.source]
        : await clipsInput(o.source, s, path.join(o.workDir, `segment-${i}.txt`))),
    );
    const captionFile = s.caption ? path.join(o.workDir, `caption-${i}.txt`) : null;
    if (captionFile && s.caption) await fs.writeFile(captionFile, s.caption);
    filters.push(segmentChain(s, i, landscape, font, captionFile));
  }
  return { inputs, filters };
}

/** One segment: an eased pan of a 9:16 window across the frame, scaled to the reel, its caption faded in. */
function segmentChain(s: ReelSegment, i: number, landscape: boolean, font: string, captionFile: string | null): string {
  const { width: W, height: H } = REEL_SIZE;
  const ease = `(3*pow(t/${s.length.toFixed(3)},2)-2*pow(t/${s.length.toFixed(3)},3))`;
  const pos = `(${s.panFrom.toFixed(3)}+(${(s.panTo - s.panFrom).toFixed(3)})*${ease})`;
  const crop = landscape
    ? `crop=w='trunc(ih*9/16/2)*2':h='ih':x='(iw-ow)*${pos}':y=0`
    : `crop=w='iw':h='trunc(min(ih,iw*16/9)/2)*2':x=0:y='(ih-oh)*${pos}'`;
  let chain = `[${i}:v]setpts=PTS-STARTPTS,fps=${REEL_FPS},${crop},scale=${W}:${H}:flags=bicubic,setsar=1`;
  if (captionFile)
    chain += `,drawtext=fontfile='${esc(font)}':textfile='${esc(captionFile)}':fontcolor=white:fontsize=84:x=(w-text_w)/2:y=h*0.76:box=1:boxcolor=black@0.45:boxborderw=28:alpha='min(1,t/0.4)'`;
  return `${chain},trim=duration=${s.length.toFixed(3)}[s${i}]`;
}

/** The encoder's options, the same with and without the face blur. */
const encodeArgs = (preset = 'veryfast') => [
  '-c:v',
  'libx264',
  '-preset',
  preset,
  '-crf',
  '23',
  '-pix_fmt',
  'yuv420p',
  '-r',
  String(REEL_FPS),
  '-movflags',
  '+faststart',
];

/** Renders and encodes in one ffmpeg run, reporting progress from its `out_time_us`. */
async function encodeReel(o: RenderReelInput, graph: ReelGraph, total: number, videoPath: string): Promise<void> {
  let carry = '';
  await runFfmpeg(
    [
      '-v',
      'error',
      '-y',
      ...graph.inputs,
      '-filter_complex',
      graph.filters,
      '-map',
      '[out]',
      '-an',
      ...encodeArgs(o.preset),
      '-progress',
      'pipe:1',
      '-nostats',
      videoPath,
    ],
    {
      signal: o.signal,
      timeoutMs: 15 * 60_000,
      onStdout: (chunk) => {
        carry += chunk.toString();
        const lines2 = carry.split('\n');
        carry = lines2.pop() ?? '';
        for (const l of lines2) {
          const m = /^out_time_us=(\d+)/.exec(l);
          if (m) o.onProgress?.(Math.min(1, Number(m[1]) / 1e6 / total));
        }
      },
    },
  );
}

/** Privacy: the rendered frames go raw through the face blur into the encoder (one encode, as without it). */
async function encodeWithFaceBlur(
  o: RenderReelInput,
  graph: ReelGraph,
  total: number,
  videoPath: string,
): Promise<void> {
  const { width: W, height: H } = REEL_SIZE;
  const { faceBlurFilter } = await import('../../media/blur-faces.js');
  const frames = Math.round(total * REEL_FPS);
  const stop = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, stop.signal]) : stop.signal;
  const limits = { timeoutMs: 15 * 60_000, maxOutputBytes: 1024 ** 2, signal };
  const decoder = runProcess(ffmpegBinaries().ffmpeg, rawRenderArgs(graph), { ...limits, rawStdout: true });
  const encoder = runProcess(ffmpegBinaries().ffmpeg, rawEncodeArgs(o.preset, videoPath), { ...limits, stdin: true });
  const r = await pipeFrames({
    decoder,
    encoder,
    frameBytes: yuv420pBytes(W, H),
    stop: () => stop.abort(),
    // 24 fps: a detection every 8th frame (three a second). One letterboxed run per detection: the reel's
    // 1920 px height is the source's height upscaled, so faces reach the model at the same scale as the clips'
    // tiles give them (and a 9:16 frame would need two heavily overlapping tiles).
    filter: faceBlurFilter({ every: 8, letterbox: true })({ width: W, height: H }),
    onFrame: (n) => o.onProgress?.(Math.min(1, n / frames)),
  });
  if (o.signal?.aborted) throw new Error('aborted');
  for (const [name, x] of [
    ['render', r.decoded],
    ['encode', r.encoded],
  ] as const) {
    if (x.code !== 0 || x.stopped)
      throw new Error(
        `ffmpeg ${name} failed (${x.stopped ?? x.code}): ${x.stderr.trim().split('\n').slice(-3).join(' | ')}`,
      );
  }
}

/** The render alone, its frames raw to stdout. */
const rawRenderArgs = (graph: ReelGraph) => [
  '-hide_banner',
  '-nostdin',
  '-v',
  'error',
  ...graph.inputs,
  '-filter_complex',
  graph.filters,
  '-map',
  '[out]',
  '-an',
  '-f',
  'rawvideo',
  '-pix_fmt',
  'yuv420p',
  'pipe:1',
];

/** The encode alone, of raw frames from stdin. */
const rawEncodeArgs = (preset: string | undefined, videoPath: string) => [
  '-hide_banner',
  '-v',
  'error',
  '-f',
  'rawvideo',
  '-pix_fmt',
  'yuv420p',
  '-s',
  `${REEL_SIZE.width}x${REEL_SIZE.height}`,
  '-framerate',
  String(REEL_FPS),
  '-i',
  'pipe:0',
  ...encodeArgs(preset),
  '-y',
  videoPath,
];

/** The reel's thumbnail: its frame at 1 s, at half size. */
async function reelThumbnail(videoPath: string, thumbnailPath: string, signal: AbortSignal | undefined): Promise<void> {
  await runFfmpeg(
    [
      '-v',
      'error',
      '-y',
      '-ss',
      '1',
      '-i',
      videoPath,
      '-frames:v',
      '1',
      '-vf',
      'scale=540:960',
      '-q:v',
      '3',
      '-update',
      '1',
      thumbnailPath,
    ],
    { signal, timeoutMs: 60_000 },
  );
}

async function clipsInfo(clips: ReelClips): Promise<{ duration: number; width: number; height: number }> {
  const frames = clips.frameCounts.reduce((a, b) => a + b, 0);
  if (!frames || !(clips.fps > 0)) throw new Error('the tour has no clips');
  const { width, height } = await probeDuration(await clips.file(0));
  return { duration: frames / clips.fps, width, height };
}

/** ffmpeg input options reading one segment from the clips that hold it (the concat demuxer over just those files). */
async function clipsInput(clips: ReelClips, s: ReelSegment, listFile: string): Promise<string[]> {
  const first = Math.floor(s.start * clips.fps);
  const last = Math.ceil((s.start + s.length) * clips.fps);
  const lines: string[] = [];
  let clipStart = 0;
  let offset = 0;
  for (const [index, count] of clips.frameCounts.entries()) {
    const clipEnd = clipStart + count;
    if (clipEnd > first && clipStart <= last) {
      if (lines.length === 0) offset = s.start - clipStart / clips.fps;
      lines.push(`file '${(await clips.file(index)).replace(/'/g, "'\\''")}'`);
    }
    clipStart = clipEnd;
  }
  await fs.writeFile(listFile, `ffconcat version 1.0\n${lines.join('\n')}\n`);
  return ['-f', 'concat', '-safe', '0', '-ss', offset.toFixed(3), '-t', s.length.toFixed(3), '-i', listFile];
}
