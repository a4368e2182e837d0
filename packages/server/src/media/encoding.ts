/**
 * Clip encoding settings and the ffmpeg argument builder for the single transcoding pass.
 *
 * Why these numbers (measured on the 2-core machine with `npm run bench:processing -w packages/server`):
 * - CLIP_FPS 15: a slow walk (about 1 m/s) moves about 7 cm between frames, finer than one scroll step, and a
 *   30°/s pan turns 2° per frame, so scrubbing looks smooth; half of 30 fps halves decode work and memory in the
 *   player and the encode time here. A clip of 36 frames is then 2.4 s of walking.
 * - x264 `veryfast`, CRF 23, no B-frames (each decoded frame comes out at once, in order, which keeps the
 *   player's seek-and-decode path simple). A clip of exactly 36 frames holds three closed GOPs of 12: a jump to
 *   any frame decodes at most 12 frames from the keyframe before it (the player's jump target is ≤ 100 ms; a
 *   36-frame GOP cost up to 36 decodes, 250–400 ms on a loaded 2-core machine), while scrubbing forward decodes
 *   each frame once either way. Under the VBV caps below the bytes do not change (measured: 2.21 MB for 24 s of
 *   detailed 720p at GOP 36, 18 and 12); calm footage below the caps grows by the two extra keyframes per clip.
 * - Four slices per 720p frame: the player's WebCodecs decoder runs with `optimizeForLatency`, which in Chromium's
 *   software H.264 decoder means slice threads only, so a one-slice frame is decoded on one core. Measured in
 *   Debian's Chromium on the 2-core machine, the 12 frames of a GOP (detailed 720p) decode in a median 21 ms
 *   instead of 24 at these caps, and 31–43 ms instead of 53–62 at 3 Mbps; more cores gain more. Within the VBV
 *   caps the bytes stay the same. The 360p rendition (a quarter of the pixels, never the frame a jump waits for) keeps
 * one
 *   slice.
 * - VBV caps (maxrate/bufsize) keep a clip of detailed, noisy footage within about 250 KB at 720p and 60 KB at
 *   360p; calm footage stays well below them because CRF decides first.
 */
import { MIN_RESOLUTION } from '@roomwalk/shared';

/** Constant sampling frame rate of every clip (see header). */
export const CLIP_FPS = 15;
/** Frames per clip; the last clip of a tour may have fewer. */
export const CLIP_FRAMES = 36;
/** A keyframe every this many frames (closed GOPs); divides CLIP_FRAMES, so every clip starts on one. */
export const KEYFRAME_INTERVAL = 12;
/**
 * Slices per frame of each rendition, so a software decoder can spread one 720p frame over several cores (see header).
 */
export const SLICES = { high: 4, low: 1 } as const;

export interface Rendition {
  name: 'high' | 'low';
  landscape: { width: number; height: number };
  crf: number;
  maxrateK: number;
  bufsizeK: number;
}

export const RENDITIONS = {
  high: {
    name: 'high',
    landscape: { width: MIN_RESOLUTION.landscape.width, height: MIN_RESOLUTION.landscape.height },
    crf: 23,
    maxrateK: 720,
    bufsizeK: 1440,
  },
  low: { name: 'low', landscape: { width: 640, height: 360 }, crf: 23, maxrateK: 170, bufsizeK: 340 },
} as const satisfies Record<string, Rendition>;

/** The x264 preset; `veryfast` is the measured balance of speed and bytes on 2 cores. */
const X264_PRESET = 'veryfast';

/** Width and height of a rendition for the tour's orientation. */
export function renditionSize(r: Rendition, portrait: boolean): { width: number; height: number } {
  return portrait ? { width: r.landscape.height, height: r.landscape.width } : { ...r.landscape };
}

/** Source frame the thumbnail is taken from: one second in, past the shaky first moment of a recording. */
export const THUMBNAIL_FRAME = CLIP_FPS;

/** fragmented MP4: one moov up front with no samples, then one moof+mdat per keyframe (three per clip). */
const FRAGMENTED_MP4_FLAGS = 'movflags=+frag_keyframe+empty_moov+default_base_moof';

/** x264 options shared by both renditions: fixed 12-frame closed GOPs, no scene-cut keyframes, no B-frames. */
export function x264Args(r: Rendition): string[] {
  return [
    '-c:v',
    'libx264',
    '-preset',
    X264_PRESET,
    '-profile:v',
    'high',
    '-pix_fmt',
    'yuv420p',
    '-crf',
    String(r.crf),
    '-maxrate',
    `${r.maxrateK}k`,
    '-bufsize',
    `${r.bufsizeK}k`,
    '-g',
    String(KEYFRAME_INTERVAL),
    '-keyint_min',
    String(KEYFRAME_INTERVAL),
    '-sc_threshold',
    '0',
    '-bf',
    '0',
    '-flags',
    '+cgop',
    '-force_key_frames',
    `expr:eq(mod(n,${KEYFRAME_INTERVAL}),0)`,
    '-slices',
    String(SLICES[r.name]),
    '-color_primaries',
    'bt709',
    '-color_trc',
    'bt709',
    '-colorspace',
    'bt709',
    '-color_range',
    'tv',
  ];
}

/** Segment muxer options cutting a rendition into one fragmented MP4 per 36 frames. */
export function segmentArgs(maxFrames: number, listPath: string): string[] {
  const cuts: number[] = [];
  for (let n = CLIP_FRAMES; n < maxFrames; n += CLIP_FRAMES) cuts.push(n);
  return [
    '-f',
    'segment',
    '-segment_format',
    'mp4',
    '-segment_format_options',
    FRAGMENTED_MP4_FLAGS,
    ...(cuts.length ? ['-segment_frames', cuts.join(',')] : ['-segment_time', '100000']),
    '-reset_timestamps',
    '1',
    '-segment_list',
    listPath,
    '-segment_list_type',
    'csv',
  ];
}

export interface ColourInfo {
  /** ffprobe's color_transfer, e.g. smpte2084 (HDR10/PQ) or arib-std-b67 (HLG). */
  transfer?: string;
  primaries?: string;
  matrix?: string;
  /** Full-range (JPEG) levels, as some Android phones record. */
  fullRange?: boolean;
}

/** ffprobe color_space names → swscale matrix names, for matrices other than BT.709 that need converting. */
const SWSCALE_MATRIX: Record<string, string> = {
  smpte170m: 'smpte170m',
  bt470bg: 'bt470',
  fcc: 'fcc',
  smpte240m: 'smpte240m',
  bt2020nc: 'bt2020',
  bt2020c: 'bt2020',
};

/** True for PQ and HLG transfer characteristics: the input is HDR and needs tone mapping to SDR. */
export function isHdr(c: ColourInfo): boolean {
  return c.transfer === 'smpte2084' || c.transfer === 'arib-std-b67';
}

export interface FilterGraphInput {
  /** ffmpeg input stream specifier of the chosen video stream, e.g. `0:1`. */
  stream: string;
  portrait: boolean;
  colour: ColourInfo;
  /** zscale + tonemap available (Debian's ffmpeg has both). */
  toneMap: boolean;
  /** Also produce the thumbnail output label `[thumb]`. */
  thumbnail: boolean;
  /**
   * Leave out the `[high]` label: the source is already in the clip format and its 720p clips are cut from it by
   * stream copy (media/copy-clips.ts), so only the 360p rendition and the thumbnail are encoded.
   */
  copyHigh?: boolean;
  /**
   * The face pass on the copy path (media/copy-faces.ts): also produce `[samples]`, every `faceSamples`-th frame at
   * the high rendition's size, and `[glance]`, every frame's luma at the 32x18 points of the cut test (the nearest
   * pixels, exactly those blur-faces.ts's glance reads).
   */
  faceSamples?: number;
  /**
   * Display rotation of the source (probe's counter-clockwise degrees). When given, the graph turns the picture
   * itself, after the downscale (a 720p transpose instead of a 4K one), and the caller passes `-noautorotate`; when
   * absent, ffmpeg's autorotate turns the full-size frames before the graph.
   */
  rotation?: 0 | 90 | 180 | 270;
  /**
   * Which tour frames to produce, on the absolute 1/CLIP_FPS grid of the source's timestamps (see {@link TourFrames}).
   */
  frames?: TourFrames;
  /**
   * The source's stored picture size (before any rotation). With it, an HDR source that is tone mapped is scaled down
   * by zscale to the size that covers the rendition (what swscale's `force_original_aspect_ratio=increase` gives):
   * measured on a 4K60 HLG clip, 4 % less CPU for the decode and graph and nearer a spline36 downscale (SSIM 0.9991
   * against swscale's 0.9944), docs/results.md "Issue 43: where the three figures stand".
   */
  codedSize?: { width: number; height: number };
}

/**
 * The smallest size of `source`'s shape that covers `target`, as swscale's `force_original_aspect_ratio=increase`
 * rounds it, each side then made even (4:2:0 chroma) by rounding up: the crop to `target` follows.
 */
export function coverSize(
  source: { width: number; height: number },
  target: { width: number; height: number },
): { width: number; height: number } {
  const width = Math.max(Math.round((target.height * source.width) / source.height), target.width);
  const height = Math.max(Math.round((target.width * source.height) / source.width), target.height);
  return { width: width + (width % 2), height: height + (height % 2) };
}

/**
 * The tour's frames as ticks of the absolute 1/CLIP_FPS grid of the source's own timestamps (ffmpeg run with
 * `-copyts`): tick n shows the last decoded frame whose timestamp rounds to ≤ n / CLIP_FPS (the `fps` filter's rule).
 * Because the grid does not depend on where decoding starts, a piece of the video decoded from a keyframe before its
 * first tick produces exactly the frames the whole video produces for those ticks (segments,
 * jobs/process-tour-segments.ts).
 */
export interface TourFrames {
  /** A tick at or before the first decoded frame: the `fps` filter's start (frames before it are dropped). */
  gridStart: number;
  /** First tick kept (the tour's frame 0 is tick `origin`; a segment starts at origin + its first frame). */
  first: number;
  /** Tick after the last one kept; absent: to the end of the video. */
  end?: number;
}

/**
 * One filter graph: resample to CLIP_FPS (constant rate, whatever the source's VFR timing), scale to cover the
 * high rendition and crop the centre (sources that are not 16:9 lose their edges rather than gain bars), tone map
 * HDR to SDR BT.709 after the downscale (cheaper at 720p than at 4K), then split into `[high]`, `[low]` and
 * `[thumb]` (one frame, 16:9 centre crop for portrait).
 */
export function buildFilterGraph(o: FilterGraphInput): string {
  const split = splitStep(o.thumbnail, !o.copyHigh, !!o.faceSamples);
  const samples = o.faceSamples
    ? `;[samples0]select=not(mod(n\\,${o.faceSamples}))[samples];[glance0]extractplanes=y,scale=32:18:flags=neighbor[glance]`
    : '';
  return `[${o.stream}]${[...normaliseSteps(o), split].join(',')};${splitTail(o.portrait, o.thumbnail)}${samples}`;
}

/**
 * The first half of buildFilterGraph for a raw frame pipe (a frame filter between decoding and encoding): the
 * source normalised to the high rendition's size, yuv420p BT.709 limited range, at CLIP_FPS, as label `[out]`.
 */
export function buildNormaliseGraph(o: Omit<FilterGraphInput, 'thumbnail'>): string {
  return `[${o.stream}]${normaliseSteps(o).join(',')}[out]`;
}

/**
 * The second half: raw high-rendition frames (input 0 of the encoder) split into `[high]` (unless `copyHigh`), `[low]`
 * and `[thumb]`.
 */
export function buildSplitGraph(portrait: boolean, thumbnail: boolean, copyHigh = false): string {
  return `[0:v]setsar=1,${splitStep(thumbnail, !copyHigh)};${splitTail(portrait, thumbnail)}`;
}

function splitStep(thumbnail: boolean, high: boolean, samples = false): string {
  const labels = [
    ...(high ? ['[high]'] : []),
    '[low0]',
    ...(thumbnail ? ['[thumb0]'] : []),
    ...(samples ? ['[samples0]', '[glance0]'] : []),
  ];
  return `split=${labels.length}${labels.join('')}`;
}

function splitTail(portrait: boolean, thumbnail: boolean): string {
  const lo = renditionSize(RENDITIONS.low, portrait);
  let graph = `[low0]scale=${lo.width}:${lo.height}[low]`;
  if (thumbnail) {
    const crop = portrait ? `,crop=iw:trunc(iw*9/16/2)*2` : '';
    graph += `;[thumb0]trim=start_frame=${THUMBNAIL_FRAME}:end_frame=${THUMBNAIL_FRAME + 1}${crop}[thumb]`;
  }
  return graph;
}

function normaliseSteps(o: Omit<FilterGraphInput, 'thumbnail'>): string[] {
  // With the rotation in the graph, scale and crop work in the stored orientation and the transpose comes last.
  const turned = o.rotation === 90 || o.rotation === 270;
  const hi = renditionSize(RENDITIONS.high, turned ? !o.portrait : o.portrait);
  const steps = o.frames
    ? [
        `fps=${CLIP_FPS}:start_time=${(o.frames.gridStart / CLIP_FPS).toFixed(9)}`,
        `trim=start_pts=${o.frames.first}${o.frames.end !== undefined ? `:end_pts=${o.frames.end}` : ''}`,
        'setpts=PTS-STARTPTS',
      ]
    : [`fps=${CLIP_FPS}`];
  if (isHdr(o.colour) && o.toneMap) {
    const tin = o.colour.transfer;
    const pin = o.colour.primaries && o.colour.primaries !== 'unknown' ? o.colour.primaries : 'bt2020';
    const min = o.colour.matrix && o.colour.matrix !== 'unknown' ? o.colour.matrix : 'bt2020nc';
    const cover = o.codedSize ? coverSize(o.codedSize, hi) : null;
    steps.push(
      cover
        ? `zscale=w=${cover.width}:h=${cover.height}:f=bicubic`
        : `scale=${hi.width}:${hi.height}:force_original_aspect_ratio=increase`,
      `crop=${hi.width}:${hi.height}`,
      `zscale=tin=${tin}:pin=${pin}:min=${min}:t=linear:npl=100`,
      'format=gbrpf32le',
      'zscale=p=bt709',
      'tonemap=tonemap=hable:desat=0',
      'zscale=t=bt709:m=bt709:r=tv',
    );
  } else {
    // SDR (8- or 10-bit), or HDR without zscale: 8-bit yuv420p, BT.709 matrix, limited range. HDR then looks flat
    // and dim but keeps its shapes and motion, which is what a walkthrough needs. The matrix and range are only
    // converted when the source says they differ: forcing a conversion costs swscale's fast path, and untagged HD
    // video is BT.709 in practice (swscale would assume BT.601).
    const matrix = SWSCALE_MATRIX[o.colour.matrix ?? ''];
    const conversions = [
      ...(matrix ? [`in_color_matrix=${matrix}`, 'out_color_matrix=bt709'] : []),
      ...(o.colour.fullRange ? ['in_range=pc', 'out_range=tv'] : []),
    ];
    steps.push(
      [`scale=${hi.width}:${hi.height}:force_original_aspect_ratio=increase`, ...conversions].join(':'),
      `crop=${hi.width}:${hi.height}`,
    );
  }
  steps.push(...rotationSteps(o.rotation), 'setsar=1', 'format=yuv420p');
  return steps;
}

/**
 * The filters that turn a picture stored with display rotation `r` (counter-clockwise, as the probe reports it)
 * upright: what ffmpeg's autorotate inserts (270 → transpose=clock, 90 → transpose=cclock, 180 → hflip,vflip), applied
 * at 720p.
 */
function rotationSteps(r: FilterGraphInput['rotation']): string[] {
  if (r === 270) return ['transpose=clock'];
  if (r === 90) return ['transpose=cclock'];
  if (r === 180) return ['hflip', 'vflip'];
  return [];
}
