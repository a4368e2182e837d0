import type { DecodedFrame, Rendition } from '../workers/decode-types.js';
import { locateFrame, totalFrames } from '../frame-math.js';
import type { PixelSink } from '../paint/pixel-sink.js';
import { FrameCache } from './frame-cache.js';
import type { Drawable, FrameSource, FrameSourceState } from './frame-source.js';

/** No frame kept: a clip's thumbnail only (`thumbnail(frame)`). */
const NONE: Pick<FrameCache, 'kept' | 'nearest'> = {
  kept: { low: new Map(), high: new Map() },
  nearest: () => undefined,
};

/**
 * Best frame to show for `frame`: exact high, exact low, a decoded frame of its clip, its clip's thumbnail, any frame;
 * `own`: the exact frames only (a frame ahead, whose bitmap is asked for before it is shown).
 */
export function pickDrawable(
  frame: number,
  o: {
    cache: Pick<FrameCache, 'kept' | 'nearest'>;
    highEnabled: boolean;
    starts: readonly number[];
    counts: readonly number[];
    thumbs: readonly (ImageBitmap | undefined)[];
  },
  own = false,
): Drawable | undefined {
  const { kept } = o.cache;
  if (o.highEnabled) {
    const h = kept.high.get(frame);
    if (h) return { frame: h, tourFrame: frame, exact: true };
  }
  const l = kept.low.get(frame);
  if (l) return { frame: l, tourFrame: frame, exact: !o.highEnabled };
  if (own) return undefined;
  const { clip } = locateFrame(o.starts, o.counts, frame);
  const clipStart = o.starts[clip] ?? 0;
  const n = o.cache.nearest(frame, Number.POSITIVE_INFINITY);
  // A decoded frame of the same clip beats the thumbnail; a frame of another clip does not.
  if (n && Math.abs(n.frame - frame) <= Math.abs(frame - clipStart))
    return { frame: n.data, tourFrame: n.frame, exact: false };
  const thumb = o.thumbs[clip];
  if (thumb) return { bitmap: thumb, rendition: 'thumbnail', tourFrame: clipStart, exact: false };
  return n ? { frame: n.data, tourFrame: n.frame, exact: false } : undefined;
}

/**
 * The decoder's frames as the main thread keeps them, and its one FrameSource: the bounded cache of decoded frames
 * (what each is: their pixels go on to the painter, PixelSink) and each clip's keyframe thumbnail (the placeholder
 * after a jump). The scheduler puts frames in; the canvas, the input and the element read them.
 */
export class DecodedFrames implements FrameSource {
  readonly cache: FrameCache;
  /** Written here only; `state` is its read-only face. */
  private readonly s: {
    total: number;
    changes: number;
    /** Per clip, its keyframe thumbnail (shown at once after a jump: it stays on the main thread). */
    thumbnails: (ImageBitmap | undefined)[];
    /** The thumbnails' bytes. */
    thumbBytes: number;
  } = { total: 0, changes: 0, thumbnails: [], thumbBytes: 0 };
  /**
   * The frames' state as data (FrameSource's, and the thumbnails the planner reads, with their bytes): readers read
   * fields, they do not call in here.
   */
  readonly state: FrameSourceState & {
    readonly thumbnails: readonly (ImageBitmap | undefined)[];
    readonly thumbBytes: number;
  } = this.s;
  private starts: readonly number[] = [];
  private counts: readonly number[] = [];
  private highEnabled = true;

  /**
   * @param sink Where the frames' pixels go (the canvas), and where they are dropped when the cache lets them go.
   * @param thumbnailCopied A thumbnail shown is there to show again (the canvas repaints).
   */
  constructor(
    budget: Record<Rendition, number>,
    private readonly sink: PixelSink,
    private readonly thumbnailCopied: () => void,
  ) {
    this.cache = new FrameCache(budget);
    this.cache.onEvict = (r, f) => sink.frameDropped(`${r}:${f}`);
  }

  /** A new tour (or none), in clips starting at `starts` of `counts` frames: nothing of the last is kept. */
  reset(starts: readonly number[], counts: readonly number[]): void {
    const { s } = this;
    s.changes++;
    this.cache.clear();
    for (const t of s.thumbnails) t?.close();
    s.thumbnails = [];
    s.thumbBytes = 0;
    s.total = totalFrames(counts);
    this.starts = starts;
    this.counts = counts;
  }

  /** Whether 720p frames are decoded, and the cache's budgets for that. */
  setHighEnabled(enabled: boolean, budget: Record<Rendition, number>): void {
    this.s.changes++;
    this.highEnabled = enabled;
    this.cache.setBudget(budget);
  }

  /** A decoded frame arrived: kept here, then its pixels go to the painter (after the evictions the put caused). */
  put(tourFrame: number, frame: DecodedFrame): void {
    this.s.changes++;
    this.cache.put(tourFrame, frame);
    this.sink.framePixels(`${frame.rendition}:${tourFrame}`, tourFrame, frame);
  }

  addThumbnail(clip: number, bitmap: ImageBitmap): void {
    const { s } = this;
    s.changes++;
    s.thumbBytes += bitmap.width * bitmap.height * 4;
    s.thumbnails[clip] = bitmap;
  }

  has(frame: number): boolean {
    const { kept } = this.cache;
    return kept.low.has(frame) || kept.high.has(frame);
  }

  drawable(frame: number): Drawable | undefined {
    return this.pick(frame, this.cache, false);
  }

  thumbnail(frame: number): Drawable | undefined {
    return this.pick(frame, NONE, false);
  }

  /** The frames ahead: their own decoded frame only. */
  drawables(frames: readonly number[]): (Drawable | undefined)[] {
    return frames.map((f, k) => this.pick(f, this.cache, k > 0));
  }

  private pick(frame: number, cache: Pick<FrameCache, 'kept' | 'nearest'>, own: boolean): Drawable | undefined {
    const { highEnabled, starts, counts } = this;
    return pickDrawable(frame, { cache, highEnabled, starts, counts, thumbs: this.s.thumbnails }, own);
  }

  /**
   * A thumbnail to show (showing consumes it): its copy, taken at once, replaces it when ready (the canvas scales it
   * for display). Undefined while that copy is being made.
   */
  takeBitmap(t: ImageBitmap): ImageBitmap | undefined {
    const { s } = this;
    const thumbs = s.thumbnails;
    const c = thumbs.indexOf(t);
    if (c < 0 || !t.width) return undefined;
    void createImageBitmap(t).then((copy) => {
      if (thumbs !== s.thumbnails || thumbs[c] !== t) return copy.close();
      thumbs[c] = copy;
      s.changes++;
      this.thumbnailCopied();
    });
    return t;
  }
}
