/// <reference lib="webworker" />
/**
 * ImageBitmaps of copied-out frames (frame-formats.ts: packed I420), for the paint worker (every frame the
 * canvas shows) and the decode worker (the frame a jump waits for, keyframe thumbnails).
 *
 * The pixels become RGBA by `VideoFrame.copyTo({ format: 'RGBA' })` where the browser converts (Chromium, Firefox:
 * libyuv, thread-safe), else in WebAssembly SIMD where the engine validates it (yuv-wasm.ts), else in script
 * (yuv-to-rgba.ts): the same bytes either way. Scaled by a plain 2D canvas, or converted straight at the bitmap's size.
 *
 * Or drawn: where copyTo converts, the browser may also draw a VideoFrame of the pixels straight onto the bitmap's
 * canvas (conversion and scaling in one step). Whether it does is measured, not assumed (Way below): in Firefox ESR
 * 153 drawing takes half the time of copyTo and putImageData (4.2 against 8.6 ms for 720p to 650x366, the same
 * picture: bench/paint-paths.mjs), in software Chromium five times as long (14.8 against 2.8 ms). Never where copyTo
 * cannot convert: WebKitGTK 2.50 converts a drawn VideoFrame through one object shared by the whole web process, and
 * two workers doing it at once crash the page (three workers drawing 720p and 360p frames crash it within seconds;
 * test/README.md).
 */
import { copyFrame, type FramePixels } from './frame-formats.js';
import { i420ToRGBA, i420ToRGBAScaled } from './yuv-to-rgba.js';
import { wasmYuv, type YuvConverter } from './yuv-wasm.js';
import { mark } from './timeline.js';
import { WayChooser, type Way } from './way-chooser.js';

export type { Way } from './way-chooser.js';

/** Who converts where the browser cannot: WebAssembly SIMD (feature-tested once, when first needed), else script. */
let converter: { yuv: YuvConverter; by: string } | undefined;
function convert(): { yuv: YuvConverter; by: string } {
  if (!converter) {
    const wasm = wasmYuv();
    converter = wasm
      ? { yuv: wasm, by: 'rgba in wasm' }
      : { yuv: { i420ToRGBA, i420ToRGBAScaled }, by: 'rgba in script' };
  }
  return converter;
}

/** The pixels as a VideoFrame (I420, their colour space), for copyTo or drawImage; the caller closes it. */
const videoFrame = (f: FramePixels): VideoFrame =>
  new VideoFrame(f.data, {
    format: 'I420',
    codedWidth: f.width,
    codedHeight: f.height,
    timestamp: 0,
    ...(f.colorSpace ? { colorSpace: f.colorSpace } : {}),
  });

/**
 * Whether this browser's copyTo converts I420 to RGBA (asked once: its allocation size for RGBA is 4 bytes a pixel).
 */
let copyConverts: boolean | undefined;

/** The frame's pixels as RGBA into `out` by the browser's copyTo; false where it cannot convert. */
async function browserRGBA(f: FramePixels, out: Uint8ClampedArray<ArrayBuffer>): Promise<boolean> {
  if (copyConverts === false) return false;
  const vf = videoFrame(f);
  try {
    copyConverts = vf.allocationSize({ format: 'RGBA' }) === out.length;
    if (!copyConverts) return false;
    await vf.copyTo(out, { format: 'RGBA' });
    return true;
  } catch {
    copyConverts = false;
    return false;
  } finally {
    vf.close();
  }
}

const sized = (c: OffscreenCanvas | undefined, width: number, height: number): OffscreenCanvas =>
  c?.width === width && c.height === height ? c : new OffscreenCanvas(width, height);

/**
 * The most the drawn picture may differ from the converted one, mean over RGB (of 255): the same conversion, rounding
 * apart (Firefox: 0.0); an engine drawing the frame in another range or matrix moves greys by 8 to 14.
 */
const SAME_PICTURE = 2;

/** Mean absolute difference over RGB of two RGBA pictures of one size. */
function meanDifference(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 4)
    sum += Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!);
  return sum / ((a.length / 4) * 3);
}

/** Makes bitmaps, keeping its canvases and RGBA buffer between calls (one per worker). */
export class BitmapMaker {
  /** The bitmap's canvas, and the frame's own size in RGBA (the scaled path's source). */
  private canvas: OffscreenCanvas | undefined;
  private full: OffscreenCanvas | undefined;
  private rgba: Uint8ClampedArray<ArrayBuffer> | undefined;
  /** The bitmap-size RGBA of the wasm or script conversion (kept like `rgba`: putImageData copies it). */
  private small: Uint8ClampedArray<ArrayBuffer> | undefined;
  /**
   * How bitmaps of each shape (the frame's size and the bitmap's: `1280x720>650x366`) are made: the first bitmap
   * where copyTo converts is made both ways and the two pictures compared (a different picture rules drawing out; a
   * frame of another colour space is compared again), then each shape's bitmaps are timed up to the bitmap and the
   * faster way kept and re-checked (way-chooser.ts), per shape (a 360p frame at its own size and a 720p one scaled
   * down are not the same work: one choice for both kept the slower way for 720p beside a busy core). A `way` given
   * to the constructor is used for every shape, unchecked (tests).
   */
  private readonly ways = new Map<string, WayChooser>();
  private readonly forced: Way | undefined;
  /** The colour space of the frames the check was made with: a frame of another is checked again. */
  private checkedSpace: string | undefined;
  /** Drawing painted another picture than the conversion: never drawn again. */
  private drawsWrong = false;

  constructor(way?: Way) {
    this.forced = way;
  }

  /** The way kept for a shape (undefined while it is being chosen). */
  wayFor(frame: { width: number; height: number }, width: number, height: number): Way | undefined {
    return this.only() ?? this.ways.get(`${frame.width}x${frame.height}>${width}x${height}`)?.way;
  }

  /** The one way every bitmap is made, where there is no choice: converted where drawing is ruled out, or forced. */
  private only(): Way | undefined {
    return copyConverts === false || this.drawsWrong ? 'copy' : this.forced;
  }

  /**
   * A `width` x `height` bitmap of the frame: put at its own size, then drawn scaled (bilinear) when the bitmap is
   * another size, or drawn by the browser (Way). `smooth`: the browser's better downscaling (thumbnails, a fraction
   * of the frame's size), always converted. Measured in the worker (software Chromium, load 5-6; the bench's notes):
   * 1.8 ms for 1280x720 -> 650x366 and 0.7 ms for 640x360, against 8.1 and 2.0 ms for drawing the VideoFrame itself.
   */
  async make(f: FramePixels, width: number, height: number, smooth = false): Promise<ImageBitmap> {
    this.canvas = sized(this.canvas, width, height);
    const canvas = this.canvas;
    const only = smooth ? 'copy' : this.only();
    if (only === 'copy') {
      await this.put(f, width, height, smooth);
      return canvas.transferToImageBitmap();
    }
    if (only === 'draw') {
      this.draw(f, width, height);
      return canvas.transferToImageBitmap();
    }
    const space = JSON.stringify(f.colorSpace ?? {});
    if (copyConverts === undefined || this.checkedSpace !== space) {
      // The first bitmap (of a colour space): converted (which also finds whether copyTo converts), drawn, compared.
      this.checkedSpace = space;
      await this.put(f, width, height, false);
      // (put has just found out: copyConverts is no longer undefined.)
      if (copyConverts as boolean | undefined) this.check(f, width, height);
      return canvas.transferToImageBitmap();
    }
    const shape = `${f.width}x${f.height}>${width}x${height}`;
    const chooser = this.ways.get(shape) ?? new WayChooser();
    this.ways.set(shape, chooser);
    const way = chooser.next();
    const t0 = performance.now();
    if (way === 'draw') this.draw(f, width, height);
    else await this.put(f, width, height, false);
    const bitmap = canvas.transferToImageBitmap();
    const choice = chooser.record(way, performance.now() - t0);
    if (choice) {
      // The bench prints these (bench-page.js ways): the shape's way, and the two ways' fastest times.
      const [what, kept, against] =
        choice.way === 'draw'
          ? (['drawn by the browser', 'draw', 'copy'] as const)
          : (['converted, not drawn', 'copy', 'draw'] as const);
      const ms = `${choice.ms[kept].toFixed(1)} against ${choice.ms[against].toFixed(1)} ms`;
      mark(`${what}${choice.changed ? ' again' : ''} ${shape} (${ms})`);
    }
    return bitmap;
  }

  /**
   * The first bitmap's check, its converted picture on the canvas: the frame drawn by the browser must paint the same
   * picture, else this maker never draws. The canvas is left with the converted picture.
   */
  private check(f: FramePixels, width: number, height: number): void {
    const ctx = this.canvas!.getContext('2d')!;
    const converted = ctx.getImageData(0, 0, width, height);
    try {
      this.draw(f, width, height);
      if (meanDifference(converted.data, ctx.getImageData(0, 0, width, height).data) <= SAME_PICTURE) return;
    } catch {
      /* a frame the browser cannot draw */
    }
    this.drawsWrong = true;
    mark('converted, not drawn: another picture');
    ctx.putImageData(converted, 0, 0);
  }

  /** The frame drawn by the browser onto the bitmap's canvas: converted and scaled (bilinear) in one step. */
  private draw(f: FramePixels, width: number, height: number): void {
    const vf = videoFrame(f);
    try {
      const ctx = this.canvas!.getContext('2d')!;
      ctx.imageSmoothingQuality = 'low';
      ctx.drawImage(vf, 0, 0, width, height);
      mark('rgba by drawImage');
    } finally {
      vf.close();
    }
  }

  /** The frame converted to RGBA (the browser's copyTo, else wasm or script) and put on the bitmap's canvas. */
  private async put(f: FramePixels, width: number, height: number, smooth: boolean): Promise<void> {
    const canvas = this.canvas!;
    const smaller = width < f.width && height <= f.height;
    if (copyConverts === false && smaller && !smooth) {
      // No browser conversion: convert straight at the bitmap's size (a quarter of the work at half size, no scaling).
      if (this.small?.length !== width * height * 4) this.small = new Uint8ClampedArray(width * height * 4);
      const { yuv, by } = convert();
      yuv.i420ToRGBAScaled(new Uint8Array(f.data), f.width, f.height, f.colorSpace, this.small, width, height);
      mark(by);
      canvas.getContext('2d')!.putImageData(new ImageData(this.small, width, height), 0, 0);
      return;
    }
    const n = f.width * f.height * 4;
    if (this.rgba?.length !== n) this.rgba = new Uint8ClampedArray(n);
    if (await browserRGBA(f, this.rgba)) mark('rgba by copyTo');
    else {
      const { yuv, by } = convert();
      yuv.i420ToRGBA(new Uint8Array(f.data), f.width, f.height, f.colorSpace, this.rgba);
      mark(by);
    }
    const image = new ImageData(this.rgba, f.width, f.height);
    if (width === f.width && height === f.height) {
      canvas.getContext('2d')!.putImageData(image, 0, 0);
      return;
    }
    this.full = sized(this.full, f.width, f.height);
    this.full.getContext('2d')!.putImageData(image, 0, 0);
    const ctx = canvas.getContext('2d')!;
    ctx.imageSmoothingQuality = smooth ? 'medium' : 'low';
    ctx.drawImage(this.full, 0, 0, width, height);
  }
}

/** The decode worker's maker (the paint worker has its own). */
const decoded = new BitmapMaker();

/**
 * The bitmap of the frame a jump waits for, made by the decode worker from the frame's copied-out pixels (the first
 * paint after a jump skips the paint worker's round trip): at the canvas's backing size, or the frame's own when it is
 * narrower: the same rule as sizeFor in controllers/canvas-controller.ts, so the main thread finds it under the size it
 * asks for. Undefined when it cannot be made: the frame is then painted through the paint worker.
 */
export function frameBitmap(
  pixels: FramePixels,
  canvas: { width: number; height: number },
): Promise<ImageBitmap | undefined> {
  const target = pixels.width < canvas.width ? pixels : canvas;
  return decoded.make(pixels, target.width, target.height).catch(() => undefined);
}

/**
 * A keyframe thumbnail of `width` x `height` (the jump placeholder), smoothly scaled; the frame stays open.
 * `fullRange`: the stream's SPS says so (copyFrame).
 */
export async function thumbnailBitmap(
  frame: VideoFrame,
  width: number,
  height: number,
  fullRange = false,
): Promise<ImageBitmap> {
  return decoded.make(await copyFrame(frame, fullRange), width, height, true);
}
