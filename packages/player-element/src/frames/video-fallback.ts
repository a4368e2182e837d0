import { clipFrameCounts, clipStarts, locateFrame, totalFrames } from '../frame-math.js';
import type { Clip } from '../api/types.js';
import type { DecodeFocus, Drawable, FrameSource, FrameSourceState } from './frame-source.js';

/** The clips' type for a MediaSource (H.264; the profile comes from the clip itself), where there is one. */
const MSE_TYPE = ['video/mp4; codecs="avc1.64001f"', 'video/mp4; codecs="avc1.42E01E"'].find(
  (t) => typeof MediaSource !== 'undefined' && MediaSource.isTypeSupported(t),
);

/**
 * Where WebCodecs is missing or the decoder failed on a tour: one hidden <video> element seeks to
 * the frame's time in its clip (low rendition, the cheapest to seek), and the frame it shows becomes a bitmap at the
 * canvas's size, which the canvas draws like any other frame source's. Slower than the decode workers but never a
 * blank player.
 */
export class VideoFallback implements FrameSource, DecodeFocus {
  private video = document.createElement('video');
  private clips: Clip[];
  private counts: number[];
  private starts: number[];
  private src = '';
  private objectURL = '';
  private busy = false;
  private wanted: number | null = null;
  /** The frame the playhead last asked for. */
  private asked = -1;
  /** The last seek's frame as a bitmap; the canvas takes it and a copy stays (takeBitmap). */
  private shown: { frame: number; bitmap: ImageBitmap } | undefined;
  private disposed = false;
  /** Written here only; `state` is its read-only face (FrameSource). */
  private readonly s = { total: 0, changes: 0 };
  readonly state: FrameSourceState = this.s;

  /**
   * @param size The canvas's backing size: the bitmaps are made at it.
   * @param onReady A frame's bitmap is ready (the canvas paints).
   */
  constructor(
    clips: Clip[],
    private readonly size: () => { width: number; height: number },
    private readonly onReady: () => void,
    private readonly onError: (message: string) => void,
  ) {
    this.clips = [...clips].sort((a, b) => a.index - b.index);
    this.counts = clipFrameCounts(this.clips);
    this.starts = clipStarts(this.counts);
    this.s.total = totalFrames(this.counts);
    this.video.muted = true;
    this.video.playsInline = true;
    this.video.crossOrigin = 'anonymous';
    this.video.preload = 'auto';
  }

  /** Any frame is a seek away: the next can be asked for once the one asked for is shown. */
  has(_frame: number): boolean {
    return this.shown?.frame === this.asked;
  }

  /** The last seek's frame when it is `frame`. */
  drawable(frame: number): Drawable | undefined {
    const s = this.shown;
    if (s?.frame !== frame) return undefined;
    return { bitmap: s.bitmap, rendition: 'video', tourFrame: frame, exact: true };
  }

  /** No thumbnails here. */
  thumbnail(_frame: number): undefined {
    return undefined;
  }

  /** Nothing ahead is drawn from here: the playhead's frame when it is the one shown. */
  drawables(frames: readonly number[]): (Drawable | undefined)[] {
    return [this.drawable(frames[0] ?? -1)];
  }

  takeBitmap(bitmap: ImageBitmap): ImageBitmap | undefined {
    const s = this.shown;
    if (s?.bitmap !== bitmap || !bitmap.width) return undefined;
    void createImageBitmap(bitmap).then((copy) => {
      if (this.shown !== s) return copy.close();
      this.shown = { frame: s.frame, bitmap: copy };
      this.s.changes++;
      this.onReady();
    });
    return bitmap;
  }

  /** The playhead moved: the video seeks there. */
  setPosition(frame: number): void {
    this.asked = frame;
    void this.show(frame);
  }

  /** A fast travel's steps are each seeked as they come: nothing to prepare. */
  setDestination(): void {}

  private once(type: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const ok = () => {
        this.video.removeEventListener('error', bad);
        resolve();
      };
      const bad = () => {
        this.video.removeEventListener(type, ok);
        reject(new Error(`video ${type} failed`));
      };
      this.video.addEventListener(type, ok, { once: true });
      this.video.addEventListener('error', bad, { once: true });
    });
  }

  /** Seeks to a frame and makes its bitmap; requests that arrive while seeking collapse into the latest one. */
  private async show(frame: number): Promise<void> {
    this.wanted = frame;
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.wanted !== null) {
        const f = this.wanted;
        this.wanted = null;
        const { clip, local } = locateFrame(this.starts, this.counts, f);
        const c = this.clips[clip];
        if (!c) continue;
        const fps = c.duration && c.duration > 0 ? (this.counts[clip] ?? 36) / c.duration : 12;
        if (this.src !== c.lowURI) {
          this.src = c.lowURI;
          const loaded = this.once('loadeddata');
          this.video.src = c.lowURI;
          await loaded;
          // WebKitGTK reads a fragmented clip as shorter than it is (2 s of 3): a seek past that never shows its frame
          // and every seek after it never ends. Such a clip is played from a MediaSource, which knows each fragment.
          if (this.video.duration < ((this.counts[clip] ?? 36) - 0.5) / fps && MSE_TYPE)
            await this.fromMediaSource(c.lowURI);
        }
        const seeked = this.once('seeked');
        this.video.currentTime = (local + 0.5) / fps;
        await seeked;
        const { width, height } = this.size();
        const bitmap = await createImageBitmap(this.video, {
          resizeWidth: width,
          resizeHeight: height,
          resizeQuality: 'medium',
        });
        if (this.disposed) return bitmap.close();
        this.shown?.bitmap.close();
        this.shown = { frame: f, bitmap };
        this.s.changes++;
        this.onReady();
      }
    } catch (e) {
      if (!this.disposed) this.onError((e as Error).message);
    } finally {
      this.busy = false;
    }
  }

  /** The clip's bytes appended whole to a MediaSource (its own URL revoked with the next one). */
  private async fromMediaSource(url: string): Promise<void> {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`clip answered ${res.status}`);
    const bytes = await res.arrayBuffer();
    const ms = new MediaSource();
    if (this.objectURL) URL.revokeObjectURL(this.objectURL);
    this.objectURL = URL.createObjectURL(ms);
    const opened = new Promise((resolve) => ms.addEventListener('sourceopen', resolve, { once: true }));
    this.video.src = this.objectURL;
    await opened;
    const sb = ms.addSourceBuffer(MSE_TYPE!);
    const appended = new Promise((resolve) => sb.addEventListener('updateend', resolve, { once: true }));
    sb.appendBuffer(bytes);
    await appended;
    const loaded = this.video.readyState >= 2 ? Promise.resolve() : this.once('loadeddata');
    ms.endOfStream();
    await loaded;
  }

  dispose(): void {
    this.disposed = true;
    this.shown?.bitmap.close();
    this.shown = undefined;
    this.s.changes++;
    if (this.objectURL) URL.revokeObjectURL(this.objectURL);
    this.objectURL = '';
    this.video.removeAttribute('src');
    this.video.load();
  }
}
