import { describe, expect, it } from 'vitest';
import { avcFullRange } from './full-range.js';

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
