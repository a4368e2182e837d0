/// <reference lib="webworker" />
/**
 * ImageBitmaps of copied-out frames (frame-formats.ts: packed I420), for the paint worker (every frame the
 * canvas shows) and the decode worker (the frame a jump waits for, keyframe thumbnails).
 *
 * No thread ever hands a VideoFrame to the browser to be drawn (`drawImage`, `createImageBitmap`): WebKitGTK 2.50
 * converts those through one object shared by the whole web process, and two workers doing it at once crash the page
 * (three workers drawing 720p and 360p frames crash it within seconds; test/README.md). The pixels become RGBA by
 * `VideoFrame.copyTo({ format: 'RGBA' })` where the browser converts (Chromium, Firefox: libyuv, thread-safe), else
 * in WebAssembly SIMD where the engine validates it (yuv-wasm.ts), else in script (yuv-to-rgba.ts): the same bytes
 * either way. Scaled by a plain 2D canvas, or converted straight at the bitmap's size.
 */
import { copyFrame, type FramePixels } from './frame-formats.js';
import { i420ToRGBA, i420ToRGBAScaled } from './yuv-to-rgba.js';
import { wasmYuv, type YuvConverter } from './yuv-wasm.js';
import { mark } from './timeline.js';

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

/**
 * Whether this browser's copyTo converts I420 to RGBA (asked once: its allocation size for RGBA is 4 bytes a pixel).
 */
let copyConverts: boolean | undefined;

/** The frame's pixels as RGBA into `out` by the browser's copyTo; false where it cannot convert. */
async function browserRGBA(f: FramePixels, out: Uint8ClampedArray<ArrayBuffer>): Promise<boolean> {
  if (copyConverts === false) return false;
  const vf = new VideoFrame(f.data, {
    format: 'I420',
    codedWidth: f.width,
    codedHeight: f.height,
    timestamp: 0,
    ...(f.colorSpace ? { colorSpace: f.colorSpace } : {}),
  });
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

/** Makes bitmaps, keeping its canvases and RGBA buffer between calls (one per worker). */
export class BitmapMaker {
  /** The bitmap's canvas, and the frame's own size in RGBA (the scaled path's source). */
  private canvas: OffscreenCanvas | undefined;
  private full: OffscreenCanvas | undefined;
  private rgba: Uint8ClampedArray<ArrayBuffer> | undefined;
  /** The bitmap-size RGBA of the wasm or script conversion (kept like `rgba`: putImageData copies it). */
  private small: Uint8ClampedArray<ArrayBuffer> | undefined;

  /**
   * A `width` x `height` bitmap of the frame: put at its own size, then drawn scaled (bilinear) when the bitmap is
   * another size. `smooth`: the browser's better downscaling (thumbnails, a fraction of the frame's size).
   * Measured in the worker (software Chromium, load 5-6; the bench's notes): 1.8 ms for 1280x720 -> 650x366 and
   * 0.7 ms for 640x360, against 8.1 and 2.0 ms for drawing the VideoFrame itself.
   */
  async make(f: FramePixels, width: number, height: number, smooth = false): Promise<ImageBitmap> {
    this.canvas = sized(this.canvas, width, height);
    const smaller = width < f.width && height <= f.height;
    if (copyConverts === false && smaller && !smooth) {
      // No browser conversion: convert straight at the bitmap's size (a quarter of the work at half size, no scaling).
      if (this.small?.length !== width * height * 4) this.small = new Uint8ClampedArray(width * height * 4);
      const { yuv, by } = convert();
      yuv.i420ToRGBAScaled(new Uint8Array(f.data), f.width, f.height, f.colorSpace, this.small, width, height);
      mark(by);
      this.canvas.getContext('2d')!.putImageData(new ImageData(this.small, width, height), 0, 0);
      return this.canvas.transferToImageBitmap();
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
      this.canvas.getContext('2d')!.putImageData(image, 0, 0);
      return this.canvas.transferToImageBitmap();
    }
    this.full = sized(this.full, f.width, f.height);
    this.full.getContext('2d')!.putImageData(image, 0, 0);
    const ctx = this.canvas.getContext('2d')!;
    ctx.imageSmoothingQuality = smooth ? 'medium' : 'low';
    ctx.drawImage(this.full, 0, 0, width, height);
    return this.canvas.transferToImageBitmap();
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
