// Builds test tours with real ffmpeg: 36-frame fragmented-MP4 H.264 clips at 1280x720 and
// 640x360, each of three closed 12-frame GOPs (as the pipeline encodes them). Every frame carries its index as a 16-bit
// barcode in the top-left 640x40 strip (40 px blocks, white = 1), and the source has a patch of one-pixel lines (PATCH)
// that the 720p rendition keeps and the 360p scaling averages to grey, as the real pipeline's renditions of
// generateSourceVideo's sources do, so tests can read from canvas pixels which frame and rendition is shown.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, writeFileSync, readdirSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedFolderSync, cachedVideoSync } from '../../../scripts/test-video-cache.mjs';

export const FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '.fixtures');
export const FPS = 12;
export const CLIP_FRAMES = 36;
/** A keyframe every 12 frames, as in the pipeline (packages/server/src/media/encoding.ts). */
export const KEYFRAME_INTERVAL = 12;
const VERSION = 'v7';
/** Where generateTour's ffmpeg command writes (the cache's folder replaces it; the key never names a real folder). */
const OUT = '{out}';
/** The fine-line patch, in source pixels from the bottom-right corner (see generateSourceVideo). */
export const PATCH = { fromRight: 200, fromBottom: 120, width: 160, height: 80 };

const fragmented = [
  '-segment_format',
  'mp4',
  '-segment_format_options',
  'movflags=+frag_keyframe+empty_moov+default_base_moof',
];
// The pipeline's encoding (packages/server/src/media/encoding.ts x264Args): CRF 23 under VBV caps of 720 kbps at 720p
// and 170 kbps at 360p, four slices per 720p frame, closed 12-frame GOPs. The caps bind on the noisy detail of the
// bench tours, so those clips are as heavy to decode as the pipeline's heaviest.
const x264 = (preset, maxrate, bframes = 0, slices = 1) => [
  '-c:v',
  'libx264',
  '-preset',
  preset,
  '-profile:v',
  'high',
  '-pix_fmt',
  'yuv420p',
  '-crf',
  '23',
  '-maxrate',
  maxrate,
  '-bufsize',
  maxrate.replace(/\d+/, (n) => String(Number(n) * 2)),
  '-g',
  String(KEYFRAME_INTERVAL),
  '-keyint_min',
  String(KEYFRAME_INTERVAL),
  '-sc_threshold',
  '0',
  '-bf',
  String(bframes),
  '-flags',
  '+cgop',
  '-slices',
  String(slices),
];

/**
 * Generates one tour: `seconds` of video at 12 fps. `detail` adds temporal noise over the test
 * pattern (realistic texture for the benchmark). Also writes source.mp4 (one file, same
 * encoding, for the <video> baseline). Idempotent.
 */
export function generateTour(
  name,
  {
    seconds,
    detail = false,
    width = 1280,
    height = 720,
    preset = 'veryfast',
    source = false,
    bframes = 0,
    fullRange = false,
  },
) {
  const dir = join(FIXTURES_DIR, name);
  const stamp = join(dir, `.done-${VERSION}`);
  if (existsSync(stamp)) return readTour(name);
  rmSync(dir, { recursive: true, force: true });
  const lowW = width > height ? 640 : 360;
  const lowH = width > height ? 360 : 640;
  const noise = detail ? ',noise=alls=6:allf=t' : '';
  const graph =
    `[0:v]format=yuv420p${noise},split[a][b];` +
    `[b]crop=640:40:0:0,geq=lum='if(mod(floor(N/pow(2,floor(X/40))),2),235,16)':cb=128:cr=128[bar];` +
    `[a]split[a1][c];[c]crop=${PATCH.width}:${PATCH.height}:0:0,geq=lum='if(mod(Y,2),235,16)':cb=128:cr=128[patch];` +
    `[a1][bar]overlay=0:0[ab];[ab][patch]overlay=${width - PATCH.fromRight}:${height - PATCH.fromBottom},format=yuv420p,split=${source ? 3 : 2}[h][l0]${source ? '[s]' : ''};` +
    `[l0]scale=${lowW}:${lowH}[l]`;
  // `fullRange`: the clips say full range (video_full_range_flag, as the console's Chromium conversion writes; the
  // samples are the same), which Firefox's decoder ignores and its decode worker reads back (workers/full-range.ts).
  const range = fullRange ? ['-color_range', 'pc'] : [];
  const seg = ['-f', 'segment', '-segment_time', String(CLIP_FRAMES / FPS), '-reset_timestamps', '1', ...fragmented];
  const args = [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${width}x${height}:rate=${FPS}:duration=${seconds}`,
    '-filter_complex',
    graph,
    '-map',
    '[h]',
    ...x264(preset, '720k', bframes, 4),
    ...range,
    ...seg,
    join(OUT, 'high-%04d.mp4'),
    '-map',
    '[l]',
    ...x264(preset, '170k', bframes),
    ...range,
    ...seg,
    join(OUT, 'low-%04d.mp4'),
  ];
  // The source MP4 of the baseline: an ordinary upload-like file (long GOP, B-frames).
  if (source)
    args.push(
      '-map',
      '[s]',
      '-c:v',
      'libx264',
      '-preset',
      preset,
      '-crf',
      '23',
      '-maxrate',
      '3000k',
      '-bufsize',
      '6000k',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      join(OUT, 'source.mp4'),
    );
  // Made once per machine (scripts/test-video-cache.mjs), copied here for the stub server to serve.
  const made = cachedFolderSync([args], (work) => {
    execFileSync(
      'ffmpeg',
      args.map((a) => a.replace(OUT, work)),
      { stdio: 'inherit' },
    );
  });
  cpSync(made, dir, { recursive: true });
  const tour = readTour(name);
  writeFileSync(join(dir, 'tour.json'), JSON.stringify(tour));
  writeFileSync(stamp, '');
  return tour;
}

function readTour(name) {
  const dir = join(FIXTURES_DIR, name);
  const high = readdirSync(dir)
    .filter((f) => /^high-\d+\.mp4$/.test(f))
    .sort();
  return {
    name,
    clips: high.map((h, index) => ({
      index,
      high: h,
      low: h.replace('high-', 'low-'),
      frameCount: CLIP_FRAMES,
      duration: CLIP_FRAMES / FPS,
    })),
  };
}

/** The test tours: a 4-clip landscape tour and a 2-clip portrait one. */
export function generateTestFixtures() {
  mkdirSync(FIXTURES_DIR, { recursive: true });
  const t0 = Date.now();
  const main = generateTour('main', { seconds: 12 });
  const portrait = generateTour('portrait', { seconds: 6, width: 720, height: 1280 });
  // Closed GOPs with B-frames (decode order differs from presentation order).
  generateTour('bframes', { seconds: 6, bframes: 2 });
  generateRangeClips();
  const brokenDir = join(FIXTURES_DIR, 'broken');
  mkdirSync(brokenDir, { recursive: true });
  writeFileSync(join(brokenDir, 'garbage.mp4'), Buffer.from('this is not an mp4 file at all'.repeat(10)));
  console.log(`[fixtures] ready in ${Date.now() - t0} ms`);
  return { main, portrait };
}

/**
 * Known colours, one 160 px column each across a 1280x720 picture: black and white (the range's ends), two greys and
 * three colours (a range read wrong moves the middle values: full-range Y 64 read as limited paints 56, 200 paints 214).
 */
const RANGE_COLOURS = [
  [0, 0, 0],
  [255, 255, 255],
  [64, 64, 64],
  [200, 200, 200],
  [200, 40, 40],
  [40, 180, 60],
  [50, 60, 200],
  [128, 128, 128],
];

/** An RGB colour as BT.709 Y'CbCr samples, full range (0..255) or limited (Y 16..235, chroma 16..240). */
function bt709([r, g, b], full) {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const y = 0.2126 * R + 0.7152 * G + 0.0722 * B;
  const pb = (B - y) / 1.8556;
  const pr = (R - y) / 1.5748;
  const clamp = (v) => Math.max(0, Math.min(255, Math.round(v)));
  return full
    ? [clamp(255 * y), clamp(128 + 255 * pb), clamp(128 + 255 * pr)]
    : [clamp(16 + 219 * y), clamp(128 + 224 * pb), clamp(128 + 224 * pr)];
}

/**
 * Two 1 s clips of RANGE_COLOURS in the tour's clip format (H.264 High, 1280x720, 15 fps, a keyframe every 12 frames,
 * no B-frames, fragmented MP4), the samples written exactly (geq) rather than converted: `full.mp4` as the console's
 * on-device conversion in Chromium writes an upload (full range: yuvj420p to ffprobe, color_range pc, BT.709 matrix and primaries, sRGB
 * transfer), `limited.mp4` as the pipeline writes its clips (yuv420p, tv). `range.json` lists the colours and samples.
 */
export function generateRangeClips() {
  const dir = join(FIXTURES_DIR, 'range');
  mkdirSync(dir, { recursive: true });
  for (const full of [true, false]) {
    const samples = RANGE_COLOURS.map((c) => bt709(c, full));
    const plane = (k) =>
      samples.reduceRight(
        (rest, s, i) => (i === samples.length - 1 ? String(s[k]) : `if(eq(floor(8*X/W),${i}),${s[k]},${rest})`),
        '',
      );
    const made = cachedVideoSync(
      [
        '-f',
        'lavfi',
        '-i',
        `color=c=black:s=1280x720:r=${SOURCE_FPS}:d=1`,
        '-vf',
        // geq writes yuv420p (given yuvj420p, ffmpeg would scale its samples into limited range first); the samples are
        // full range by the stream's flag: libx264 writes video_full_range_flag for color_range pc.
        `format=yuv420p,geq=lum='${plane(0)}':cb='${plane(1)}':cr='${plane(2)}'`,
        '-c:v',
        'libx264',
        '-profile:v',
        'high',
        '-pix_fmt',
        'yuv420p',
        '-qp',
        '4',
        '-g',
        String(KEYFRAME_INTERVAL),
        '-keyint_min',
        String(KEYFRAME_INTERVAL),
        '-sc_threshold',
        '0',
        '-bf',
        '0',
        '-color_range',
        full ? 'pc' : 'tv',
        '-colorspace',
        'bt709',
        '-color_primaries',
        'bt709',
        '-color_trc',
        full ? 'iec61966-2-1' : 'bt709',
        '-movflags',
        'frag_keyframe+empty_moov+default_base_moof',
      ],
      { name: full ? 'full.mp4' : 'limited.mp4' },
    );
    cpSync(made, join(dir, full ? 'full.mp4' : 'limited.mp4'));
  }
  writeFileSync(
    join(dir, 'range.json'),
    JSON.stringify({
      colours: RANGE_COLOURS,
      full: RANGE_COLOURS.map((c) => bt709(c, true)),
      limited: RANGE_COLOURS.map((c) => bt709(c, false)),
    }),
  );
}

/**
 * Source videos for the real pipeline (packages/server/test/fixtures/player-tours.ts uploads them): 15 fps, the
 * pipeline's clip rate (packages/server/src/media/encoding.ts CLIP_FPS), so the pipeline's `fps` filter keeps every
 * frame and tour frame i is source frame i; at the pipeline's high rendition size (1280x720 or 720x1280), so its scale
 * is the identity. Each frame carries its index as the same 16-bit barcode as the stub's clips (40 px blocks along the
 * top), and a 160x80 patch of one-pixel horizontal lines (PATCH, in source pixels) that the 720p rendition keeps and
 * the 360p rendition averages to flat grey: tests tell the renditions apart by the patch's line contrast on the canvas
 * (helpers.ts showsLowRendition). Encoded near-lossless (CRF 12), like a phone's upload. Made once per machine
 * (scripts/test-video-cache.mjs).
 */
export const SOURCE_FPS = 15;
export function generateSourceVideo(name, { seconds = 12, width = 1280, height = 720 } = {}) {
  const px = width - PATCH.fromRight;
  const py = height - PATCH.fromBottom;
  const graph =
    `[0:v]format=yuv420p,split=3[a][b][c];` +
    `[b]crop=640:40:0:0,geq=lum='if(mod(floor(N/pow(2,floor(X/40))),2),235,16)':cb=128:cr=128[bar];` +
    `[c]crop=${PATCH.width}:${PATCH.height}:0:0,geq=lum='if(mod(Y,2),235,16)':cb=128:cr=128[patch];` +
    `[a][bar]overlay=0:0[ab];[ab][patch]overlay=${px}:${py},format=yuv420p[out]`;
  return cachedVideoSync(
    [
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${width}x${height}:rate=${SOURCE_FPS}:duration=${seconds}`,
      '-filter_complex',
      graph,
      '-map',
      '[out]',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '12',
      '-pix_fmt',
      'yuv420p',
      '-g',
      '30',
      '-movflags',
      '+faststart',
    ],
    { name: `${name}-${width}x${height}-${seconds}s.mp4` },
  );
}

// Run as a script (scripts/test.sh's preparation): last, once every constant above is initialised.
if (process.argv[1] === fileURLToPath(import.meta.url)) generateTestFixtures();
