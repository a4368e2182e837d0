import { describe, expect, it } from 'vitest';
import { avcFullRange, expandLimitedRGB } from './full-range.js';

/** The SPS libx264 writes for test/fixtures.mjs generateRangeClips' clips (High, 1280x720, BT.709 VUI). */
const SPS = {
  full: '6764001facb200a00b7602dc0434050000030001000003001e0f183248',
  limited: '6764001facb200a00b7602d40404050000030001000003001e0f183248',
};
/** An AVCDecoderConfigurationRecord holding one SPS and no PPS. */
function avcC(spsHex: string): Uint8Array {
  const sps = Uint8Array.from(spsHex.match(/../g)!.map((h) => Number.parseInt(h, 16)));
  return Uint8Array.from([1, sps[1]!, sps[2]!, sps[3]!, 0xff, 0xe1, 0, sps.length, ...sps, 0]);
}

describe('avcFullRange', () => {
  it("reads the SPS's video_full_range_flag", () => {
    expect(avcFullRange(avcC(SPS.full))).toBe(true);
    expect(avcFullRange(avcC(SPS.limited))).toBe(false);
  });
  it('answers false for a record it cannot read', () => {
    expect(avcFullRange(new Uint8Array(0))).toBe(false);
    expect(avcFullRange(avcC(SPS.full.slice(0, 20)))).toBe(false);
  });
});

describe('expandLimitedRGB', () => {
  // BT.709, the matrix Firefox ESR converts with: RGB of full-range samples as the engine paints them (read as limited
  // range, clipped) and as they should be.
  const kr = 0.2126;
  const kb = 0.0722;
  const rgbOf = ([y, u, v]: number[], full: boolean) => {
    const ys = full ? 1 : 255 / 219;
    const cs = full ? 1 : 255 / 224;
    const Y = (y! - (full ? 0 : 16)) * ys;
    const [U, V] = [(u! - 128) * cs, (v! - 128) * cs];
    const rgb = [
      Y + 2 * (1 - kr) * V,
      Y - ((2 * kb * (1 - kb)) / (1 - kr - kb)) * U - ((2 * kr * (1 - kr)) / (1 - kr - kb)) * V,
      Y + 2 * (1 - kb) * U,
    ];
    return rgb.map((c) => Math.max(0, Math.min(255, Math.round(c))));
  };
  it('paints full-range samples the engine read as limited as the full-range conversion does, ends kept', () => {
    // Greys, colours, and black and white (Y 0 and 255: the engine clips them to 0 and 255, which stay).
    const samples = [
      [0, 128, 128],
      [255, 128, 128],
      [64, 128, 128],
      [200, 128, 128],
      [74, 110, 208],
      [142, 84, 64],
      [68, 199, 117],
    ];
    for (const bgr of [false, true]) {
      const px = new Uint8Array(samples.length * 4);
      samples.forEach((s, i) => {
        const [r, g, b] = rgbOf(s, false);
        px.set(bgr ? [b!, g!, r!, 0] : [r!, g!, b!, 0], i * 4);
      });
      expandLimitedRGB(px.buffer, bgr, 'bt709');
      samples.forEach((s, i) => {
        const got = Array.from(px.subarray(i * 4, i * 4 + 3));
        const [r, g, b] = rgbOf(s, true);
        const want = bgr ? [b!, g!, r!] : [r!, g!, b!];
        for (let k = 0; k < 3; k++)
          expect(Math.abs(got[k]! - want[k]!), `${s} -> ${got}, want ${want}`).toBeLessThanOrEqual(2);
      });
    }
  });
});
