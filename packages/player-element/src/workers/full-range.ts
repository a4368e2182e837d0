/**
 * Full-range H.264 (video_full_range_flag 1: black is Y 0, white Y 255, as the console's on-device conversion in
 * Chromium writes an upload the server keeps as a tour's 720p clips) where the engine does not honour it. Firefox ESR
 * 153 decodes every clip to BGRX frames converted as limited range BT.709 whatever the stream says (its frames report
 * `fullRange: false`; a `colorSpace` in the decoder's config is echoed by the frames and changes nothing): greys come
 * out 8 to 14 levels off (Y 64 paints 56, Y 200 paints 214) and Y below 16 or above 235 is clipped to 0 or 255 before
 * the player sees a byte. The range is read from the stream itself (the avcC's SPS) and such RGB is read back as what
 * it should have been (rgb-to-i420.ts fullRangeReadBack; test: colour-range.test.ts). Pure: no DOM, no worker.
 */
/** Reads an SPS's bits (emulation prevention bytes already removed). */
class Bits {
  private pos = 0;
  constructor(private readonly bytes: Uint8Array) {}
  bit(): number {
    const byte = this.bytes[this.pos >> 3];
    if (byte === undefined) throw new RangeError('SPS ends early');
    const b = (byte >> (7 - (this.pos & 7))) & 1;
    this.pos++;
    return b;
  }
  bits(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 2 + this.bit();
    return v;
  }
  /** ue(v), Exp-Golomb. */
  ue(): number {
    let zeros = 0;
    while (this.bit() === 0) zeros++;
    return 2 ** zeros - 1 + this.bits(zeros);
  }
  se(): number {
    const k = this.ue();
    return k % 2 ? (k + 1) / 2 : -k / 2;
  }
}

/** Profiles whose SPS carries chroma format, bit depths and scaling lists (H.264 7.3.2.1.1). */
const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

/** The SPS's video_full_range_flag (false without a VUI or its video signal type). */
function spsFullRange(nal: Uint8Array): boolean {
  const rbsp: number[] = [];
  for (let i = 1; i < nal.length; i++) {
    if (i >= 3 && nal[i] === 3 && nal[i - 1] === 0 && nal[i - 2] === 0) continue;
    rbsp.push(nal[i]!);
  }
  const r = new Bits(Uint8Array.from(rbsp));
  const profile = r.bits(8);
  r.bits(16); // constraint flags, level
  r.ue(); // seq_parameter_set_id
  if (HIGH_PROFILES.has(profile)) {
    const chroma = r.ue();
    if (chroma === 3) r.bit();
    r.ue();
    r.ue();
    r.bit();
    if (r.bit())
      for (let i = 0; i < (chroma === 3 ? 12 : 8); i++) {
        if (!r.bit()) continue;
        let last = 8;
        let next = 8;
        for (let j = 0; j < (i < 6 ? 16 : 64); j++) {
          if (next !== 0) next = (last + r.se() + 256) % 256;
          last = next === 0 ? last : next;
        }
      }
  }
  r.ue(); // log2_max_frame_num_minus4
  const pocType = r.ue();
  if (pocType === 0) r.ue();
  else if (pocType === 1) {
    r.bit();
    r.se();
    r.se();
    const n = r.ue();
    for (let i = 0; i < n; i++) r.se();
  }
  r.ue(); // max_num_ref_frames
  r.bit();
  r.ue(); // width, height in macroblocks
  r.ue();
  if (!r.bit()) r.bit(); // frame_mbs_only_flag, mb_adaptive_frame_field_flag
  r.bit();
  if (r.bit()) for (let i = 0; i < 4; i++) r.ue(); // frame cropping
  if (!r.bit()) return false; // vui_parameters_present_flag
  if (r.bit() && r.bits(8) === 255) r.bits(32); // aspect ratio (extended SAR)
  if (r.bit()) r.bit(); // overscan
  if (!r.bit()) return false; // video_signal_type_present_flag
  r.bits(3); // video_format
  return r.bit() === 1;
}

/** Whether an avcC (AVCDecoderConfigurationRecord, the decoder's `description`) says full range; false when unreadable. */
export function avcFullRange(avcC: Uint8Array): boolean {
  try {
    if ((avcC[5]! & 0x1f) === 0) return false;
    const length = (avcC[6]! << 8) | avcC[7]!;
    return spsFullRange(avcC.subarray(8, 8 + length));
  } catch {
    return false;
  }
}
