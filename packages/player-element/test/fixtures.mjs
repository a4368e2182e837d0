// Builds test tours with real ffmpeg: 36-frame fragmented-MP4 H.264 clips at 1280x720 and
// 640x360, each of three closed 12-frame GOPs (as the pipeline encodes them). Every frame carries its index as a 16-bit barcode in the top-left
// 640x40 strip (40 px blocks, white = 1), and the low rendition has a white 40x40 box in its
// bottom-right corner, so tests can read from canvas pixels which frame and rendition is shown.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, readdirSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '.fixtures');
export const FPS = 12;
export const CLIP_FRAMES = 36;
/** A keyframe every 12 frames, as in the pipeline (packages/server/src/media/encoding.ts). */
export const KEYFRAME_INTERVAL = 12;
const VERSION = 'v6';

const fragmented = ['-segment_format', 'mp4', '-segment_format_options', 'movflags=+frag_keyframe+empty_moov+default_base_moof'];
// The pipeline's encoding (packages/server/src/media/encoding.ts x264Args): CRF 23 under VBV caps of 720 kbps at 720p
// and 170 kbps at 360p, four slices per 720p frame, closed 12-frame GOPs. The caps bind on the noisy detail of the bench
// tours, so those clips are as heavy to decode as the pipeline's heaviest.
const x264 = (preset, maxrate, bframes = 0, slices = 1) => ['-c:v', 'libx264', '-preset', preset, '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-crf', '23', '-maxrate', maxrate, '-bufsize', maxrate.replace(/\d+/, (n) => String(Number(n) * 2)), '-g', String(KEYFRAME_INTERVAL), '-keyint_min', String(KEYFRAME_INTERVAL), '-sc_threshold', '0', '-bf', String(bframes), '-flags', '+cgop', '-slices', String(slices)];

/**
 * Generates one tour: `seconds` of video at 12 fps. `detail` adds temporal noise over the test
 * pattern (realistic texture for the benchmark). Also writes source.mp4 (one file, same
 * encoding, for the <video> baseline). Idempotent.
 */
export function generateTour(name, { seconds, detail = false, width = 1280, height = 720, preset = 'veryfast', source = false, bframes = 0 }) {
  const dir = join(FIXTURES_DIR, name);
  const stamp = join(dir, `.done-${VERSION}`);
  if (existsSync(stamp)) return readTour(name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const lowW = width > height ? 640 : 360;
  const lowH = width > height ? 360 : 640;
  const noise = detail ? ',noise=alls=6:allf=t' : '';
  const graph =
    `[0:v]format=yuv420p${noise},split[a][b];` +
    `[b]crop=640:40:0:0,geq=lum='if(mod(floor(N/pow(2,floor(X/40))),2),235,16)':cb=128:cr=128[bar];` +
    `[a][bar]overlay=0:0,format=yuv420p,split=${source ? 3 : 2}[h][l0]${source ? '[s]' : ''};` +
    `[l0]scale=${lowW}:${lowH},drawbox=x=${lowW - 40}:y=${lowH - 40}:w=40:h=40:color=white:t=fill[l]`;
  const seg = ['-f', 'segment', '-segment_time', String(CLIP_FRAMES / FPS), '-reset_timestamps', '1', ...fragmented];
  const args = [
    '-nostdin', '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${FPS}:duration=${seconds}`,
    '-filter_complex', graph,
    '-map', '[h]', ...x264(preset, '720k', bframes, 4), ...seg, join(dir, 'high-%04d.mp4'),
    '-map', '[l]', ...x264(preset, '170k', bframes), ...seg, join(dir, 'low-%04d.mp4'),
  ];
  // The source MP4 of the baseline: an ordinary upload-like file (long GOP, B-frames).
  if (source) args.push('-map', '[s]', '-c:v', 'libx264', '-preset', preset, '-crf', '23', '-maxrate', '3000k', '-bufsize', '6000k', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', join(dir, 'source.mp4'));
  execFileSync('ffmpeg', args, { stdio: 'inherit' });
  const tour = readTour(name);
  writeFileSync(join(dir, 'tour.json'), JSON.stringify(tour));
  writeFileSync(stamp, '');
  return tour;
}

function readTour(name) {
  const dir = join(FIXTURES_DIR, name);
  const high = readdirSync(dir).filter((f) => /^high-\d+\.mp4$/.test(f)).sort();
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
  const brokenDir = join(FIXTURES_DIR, 'broken');
  mkdirSync(brokenDir, { recursive: true });
  writeFileSync(join(brokenDir, 'garbage.mp4'), Buffer.from('this is not an mp4 file at all'.repeat(10)));
  console.log(`[fixtures] ready in ${Date.now() - t0} ms`);
  return { main, portrait };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) generateTestFixtures();
