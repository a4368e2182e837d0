/**
 * The Enhance pipeline, all with sharp: grey-world white balance, exposure stretch and local contrast (CLAHE),
 * denoise (median 3), sharpen, and straightening when the near-vertical edges lean by 0.5° to 8° (rotated back and
 * cropped to the largest upright rectangle, then resized to the original size).
 */
import sharp from 'sharp';
import { edgeAngles, toGrey } from './score-frame.js';

const MAX_STRAIGHTEN_DEGREES = 8;

export async function enhanceImage(
  input: Buffer,
): Promise<{ image: Buffer; rotatedDegrees: number; gains: [number, number, number] }> {
  const base = sharp(input, { limitInputPixels: 100_000_000 }).rotate().removeAlpha();
  const meta = await base.metadata();
  const stats = await base.clone().stats();
  const means = stats.channels.slice(0, 3).map((c) => Math.max(1, c.mean));
  const grey = (means[0]! + means[1]! + means[2]!) / 3;
  // Grey world, bounded so a room that really is one colour is not turned grey.
  const gains = means.map((m) => Math.max(0.7, Math.min(1.4, grey / m))) as [number, number, number];
  let img = await base
    .clone()
    .linear(gains, [0, 0, 0])
    .normalise({ lower: 1, upper: 99 })
    .clahe({ width: 64, height: 64, maxSlope: 2 })
    .median(3)
    .sharpen({ sigma: 1 })
    .jpeg({ quality: 92 })
    .toBuffer();
  // Tilt from a small copy: near-vertical edges should be vertical.
  const small = await sharp(img)
    .resize(480, 480, { fit: 'inside' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { tiltDegrees } = edgeAngles(
    toGrey(small.data, small.info.width, small.info.height),
    small.info.width,
    small.info.height,
  );
  let rotatedDegrees = 0;
  const w = meta.width ?? small.info.width;
  const h = meta.height ?? small.info.height;
  if (Math.abs(tiltDegrees) >= 0.5 && Math.abs(tiltDegrees) <= MAX_STRAIGHTEN_DEGREES) {
    rotatedDegrees = -tiltDegrees;
    const rad = (Math.abs(rotatedDegrees) * Math.PI) / 180;
    // Largest axis-aligned rectangle of the same aspect inside the rotated picture.
    const scale = 1 / (Math.cos(rad) + Math.max(w / h, h / w) * Math.sin(rad));
    const rotated = await sharp(img)
      .rotate(rotatedDegrees, { background: '#000' })
      .toBuffer({ resolveWithObject: true });
    const cw = Math.floor(w * scale);
    const ch = Math.floor(h * scale);
    img = await sharp(rotated.data)
      .extract({
        left: Math.floor((rotated.info.width - cw) / 2),
        top: Math.floor((rotated.info.height - ch) / 2),
        width: cw,
        height: ch,
      })
      .resize(w, h)
      .jpeg({ quality: 92 })
      .toBuffer();
  }
  return { image: img, rotatedDegrees, gains };
}
