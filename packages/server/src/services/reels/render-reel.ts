/**
 * Renders a vertical 1080x1920 H.264 reel from a landscape (or portrait) walkthrough in ONE ffmpeg run: a few
 * segments around the markers (or evenly spread), each a smooth eased pan of a 9:16 window across the frame, the
 * room name as a caption, then an end card with the agent's name, contact, company and logo. The seed picks the
 * segment offsets, the pan directions and the card colour, so each reel of a tour differs.
 *
 * The pictures come from the tour's own 720p clips when it has them (ReelClips): H.264 at the tour's frame rate,
 * already blurred where the owner asked, so a reel costs the same whatever the upload was. Reading the upload instead
 * decoded a 4K 60 fps HEVC source once per segment, all at once (4 min 20 s for an 11 s tour, against 51 s for a
 * 60 s 1080p one).
 */
import fs from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';
import PDFDocument from 'pdfkit';
import { probeDuration, runFfmpeg } from '../ai/ffmpeg.js';
import { ffmpegBinaries } from '../../media/ffmpeg-binaries.js';
import { pipeFrames, yuv420pBytes } from '../../media/frame-pipe.js';
import { runProcess } from '../../media/run-process.js';

export const REEL_SIZE = { width: 1080, height: 1920 } as const;
const REEL_FPS = 24;
const END_CARD_SECONDS = 3;
/** Body (segments) length aimed at; with the end card a reel lasts 15 to 30 s. */
const BODY_SECONDS = 16;
export const REEL_PROVIDER = 'roomwalk-ffmpeg';

const FONT_MISSING_TEXT = 'No caption font found: install fonts-dejavu-core (or set REEL_FONT_FILE).';

/** A caption font from the system: REEL_FONT_FILE, fontconfig's DejaVu Sans Bold, or Debian's fixed path. */
export function findFont(env: Record<string, string | undefined> = process.env): string {
  const candidates: string[] = [];
  if (env.REEL_FONT_FILE) candidates.push(env.REEL_FONT_FILE);
  try {
    candidates.push(
      execFileSync('fc-match', ['-f', '%{file}', 'DejaVu Sans:bold'], { encoding: 'utf8', timeout: 5000 }).trim(),
    );
  } catch {
    // fontconfig not installed: try the fixed path
  }
  candidates.push('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf');
  const found = candidates.find((f) => f && /\.(ttf|otf)$/i.test(f) && existsSync(f));
  if (!found) throw new Error(FONT_MISSING_TEXT);
  return found;
}

/** Small deterministic PRNG (mulberry32), so one seed always gives the same reel. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ReelSegment {
  start: number;
  length: number;
  caption: string | null;
  panFrom: number;
  panTo: number;
}

/** Which parts of the video the reel shows: around the markers (in order), topped up with evenly spread ones. */
function planSegments(duration: number, markers: Array<{ time: number; name: string }>, seed: number): ReelSegment[] {
  const random = rng(seed);
  const sorted = [...markers].filter((m) => m.time >= 0 && m.time < duration).sort((a, b) => a.time - b.time);
  let picks: Array<{ time: number; name: string | null }> = sorted;
  if (picks.length > 6) {
    // Keep six spread over the tour; the seed decides which of the neighbours.
    const step = picks.length / 6;
    picks = Array.from(
      { length: 6 },
      (_, i) => sorted[Math.min(sorted.length - 1, Math.floor(i * step + random() * step))]!,
    );
  }
  const count = Math.max(3, picks.length);
  const length = Math.max(2.5, Math.min(5, BODY_SECONDS / count, duration));
  if (picks.length < 3) {
    const even = Array.from({ length: 3 }, (_, i) => ({
      time: ((duration - length) * (i + 0.5)) / 3,
      name: null as string | null,
    }));
    picks = [...picks, ...even.filter((e) => picks.every((p) => Math.abs(p.time - e.time) > length))]
      .slice(0, 3)
      .sort((a, b) => a.time - b.time);
    while (picks.length < 3) picks.push({ time: random() * Math.max(0, duration - length), name: null });
  }
  return picks.map((p) => {
    const jitter = random() * Math.min(1, length / 3);
    const start = Math.max(0, Math.min(duration - length, p.time + jitter));
    const leftToRight = random() < 0.5;
    const a = 0.1 + random() * 0.2;
    const b = 0.7 + random() * 0.2;
    return { start, length, caption: p.name, panFrom: leftToRight ? a : b, panTo: leftToRight ? b : a };
  });
}

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
  agent: { name: string | null; contact: string | null; company: string | null; logoFile: string | null };
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

const esc = (s: string) => s.replace(/[\\:']/g, (c) => `\\${c}`);

export async function renderReel(o: RenderReelInput): Promise<RenderedReel> {
  const font = findFont();
  const { duration, width, height } =
    typeof o.source === 'string' ? await probeDuration(o.source) : await clipsInfo(o.source);
  const segments = planSegments(duration, o.markers, o.seed);
  const random = rng(o.seed ^ 0x5eed);
  const { width: W, height: H } = REEL_SIZE;
  const landscape = width / height > 9 / 16;
  const inputs: string[] = [];
  const filters: string[] = [];
  for (const [i, s] of segments.entries()) {
    inputs.push(
      ...(typeof o.source === 'string'
        ? ['-ss', s.start.toFixed(3), '-t', s.length.toFixed(3), '-i', o.source]
        : await clipsInput(o.source, s, path.join(o.workDir, `segment-${i}.txt`))),
    );
    const ease = `(3*pow(t/${s.length.toFixed(3)},2)-2*pow(t/${s.length.toFixed(3)},3))`;
    const pos = `(${s.panFrom.toFixed(3)}+(${(s.panTo - s.panFrom).toFixed(3)})*${ease})`;
    const crop = landscape
      ? `crop=w='trunc(ih*9/16/2)*2':h='ih':x='(iw-ow)*${pos}':y=0`
      : `crop=w='iw':h='trunc(min(ih,iw*16/9)/2)*2':x=0:y='(ih-oh)*${pos}'`;
    let chain = `[${i}:v]setpts=PTS-STARTPTS,fps=${REEL_FPS},${crop},scale=${W}:${H}:flags=bicubic,setsar=1`;
    if (s.caption) {
      const file = path.join(o.workDir, `caption-${i}.txt`);
      await fs.writeFile(file, s.caption);
      chain += `,drawtext=fontfile='${esc(font)}':textfile='${esc(file)}':fontcolor=white:fontsize=84:x=(w-text_w)/2:y=h*0.76:box=1:boxcolor=black@0.45:boxborderw=28:alpha='min(1,t/0.4)'`;
    }
    filters.push(`${chain},trim=duration=${s.length.toFixed(3)}[s${i}]`);
  }
  // End card: a calm colour from the seed, the logo, then the agent's lines.
  const hue = Math.floor(random() * 360);
  const card = hslHex(hue, 0.35, 0.16);
  const cardInput = segments.length;
  inputs.push('-f', 'lavfi', '-i', `color=c=0x${card}:s=${W}x${H}:r=${REEL_FPS}:d=${END_CARD_SECONDS}`);
  let cardChain = `[${cardInput}:v]setsar=1`;
  let nextInput = cardInput + 1;
  if (o.agent.logoFile) {
    const logoPng = path.join(o.workDir, 'logo.png');
    await sharp(o.agent.logoFile, { limitInputPixels: 50_000_000 })
      .resize(480, 480, { fit: 'inside', withoutEnlargement: false })
      .png()
      .toFile(logoPng);
    inputs.push('-i', logoPng);
    filters.push(`[${nextInput}:v]format=rgba[logo]`);
    cardChain += `[bg];[bg][logo]overlay=x=(W-w)/2:y=H*0.22`;
    nextInput++;
  }
  cardChain += await endCardText(o.agent, font, o.workDir);
  filters.push(`${cardChain},format=yuv420p[end]`);
  filters.push(
    `${segments.map((_, i) => `[s${i}]`).join('')}[end]concat=n=${segments.length + 1}:v=1:a=0,format=yuv420p[out]`,
  );
  const total = segments.reduce((s, x) => s + x.length, 0) + END_CARD_SECONDS;
  const videoPath = path.join(o.workDir, 'reel.mp4');
  const encode = [
    '-c:v',
    'libx264',
    '-preset',
    o.preset ?? 'veryfast',
    '-crf',
    '23',
    '-pix_fmt',
    'yuv420p',
    '-r',
    String(REEL_FPS),
    '-movflags',
    '+faststart',
  ];
  if (o.blurFaces) {
    // Privacy: the rendered frames go raw through the face blur into the encoder (one encode, as without it).
    const { faceBlurFilter } = await import('../../media/blur-faces.js');
    const frames = Math.round(total * REEL_FPS);
    const stop = new AbortController();
    const signal = o.signal ? AbortSignal.any([o.signal, stop.signal]) : stop.signal;
    const limits = { timeoutMs: 15 * 60_000, maxOutputBytes: 1024 ** 2, signal };
    const decoder = runProcess(
      ffmpegBinaries().ffmpeg,
      [
        '-hide_banner',
        '-nostdin',
        '-v',
        'error',
        ...inputs,
        '-filter_complex',
        filters.join(';'),
        '-map',
        '[out]',
        '-an',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'yuv420p',
        'pipe:1',
      ],
      { ...limits, rawStdout: true },
    );
    const encoder = runProcess(
      ffmpegBinaries().ffmpeg,
      [
        '-hide_banner',
        '-v',
        'error',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'yuv420p',
        '-s',
        `${W}x${H}`,
        '-framerate',
        String(REEL_FPS),
        '-i',
        'pipe:0',
        ...encode,
        '-y',
        videoPath,
      ],
      { ...limits, stdin: true },
    );
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
  } else {
    let carry = '';
    await runFfmpeg(
      [
        '-v',
        'error',
        '-y',
        ...inputs,
        '-filter_complex',
        filters.join(';'),
        '-map',
        '[out]',
        '-an',
        ...encode,
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
  const thumbnailPath = path.join(o.workDir, 'thumbnail.jpg');
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
    { signal: o.signal, timeoutMs: 60_000 },
  );
  return { videoPath, thumbnailPath, duration: total, segments };
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

/** Side margin of the end card's lines, each side. */
export const END_CARD_MARGIN = 72;
const CARD_SIZES = { name: 76, line: 56, min: 30 } as const;

/** Width in pixels of `text` drawn in `font` at `size` px (the font's advance widths, as drawtext lays it out). */
export function textWidth(text: string, font: string, size: number): number {
  const doc = new PDFDocument({ autoFirstPage: false });
  return doc.font(font).fontSize(size).widthOfString(text);
}

/**
 * The end card's lines laid out to fit the card between its margins: the name, the contact (split into its parts,
 * number and email, when together they do not fit), the company; each at its size, smaller when needed, and cut
 * with an ellipsis only when even the smallest size does not fit.
 */
export function fitEndCardLines(
  agent: Pick<RenderReelInput['agent'], 'name' | 'contact' | 'company'>,
  font: string,
  width: number = REEL_SIZE.width,
): Array<{ text: string; size: number }> {
  const room = width - 2 * END_CARD_MARGIN;
  const fit = (text: string, size: number): { text: string; size: number } => {
    let s = size;
    while (s > CARD_SIZES.min && textWidth(text, font, s) > room) s -= 2;
    let t = text;
    while (t.length > 1 && textWidth(t, font, s) > room) t = `${t.slice(0, -2).trimEnd()}…`;
    return { text: t, size: s };
  };
  const clean = (l: string | null) =>
    l
      ?.replace(/[\r\n\t]+/g, ' ')
      .trim()
      .slice(0, 120) || null;
  const out: Array<{ text: string; size: number }> = [];
  const name = clean(agent.name);
  if (name) out.push(fit(name, CARD_SIZES.name));
  const contact = clean(agent.contact);
  if (contact) {
    const parts = contact.split(/\s+·\s+/).filter(Boolean);
    if (parts.length > 1 && textWidth(contact, font, CARD_SIZES.line) > room)
      out.push(...parts.map((p) => fit(p, CARD_SIZES.line)));
    else out.push(fit(contact, CARD_SIZES.line));
  }
  const company = clean(agent.company);
  if (company) out.push(fit(company, CARD_SIZES.line));
  return out;
}

/** drawtext filters for the end card's lines, centred, one below the other from 55 % of the height. */
export async function endCardText(
  agent: RenderReelInput['agent'],
  font: string,
  workDir: string,
  size: { width: number; height: number } = REEL_SIZE,
): Promise<string> {
  let chain = '';
  let y = Math.round(size.height * 0.55);
  for (const [k, line] of fitEndCardLines(agent, font, size.width).entries()) {
    const file = path.join(workDir, `card-${k}.txt`);
    await fs.writeFile(file, line.text);
    chain += `,drawtext=fontfile='${esc(font)}':textfile='${esc(file)}':fontcolor=white:fontsize=${line.size}:x=(w-text_w)/2:y=${y}`;
    y += Math.round(line.size * 1.6);
  }
  return chain;
}

function hslHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(255 * c)
      .toString(16)
      .padStart(2, '0');
  };
  return `${f(0)}${f(8)}${f(4)}`;
}
