import { describe, expect, it } from 'vitest';
import {
  CLIP_FORMAT,
  clipFormatTarget,
  incompleteSource,
  littleToGain,
  mezzanineSize,
  mezzanineTarget,
  raceVerdict,
  sourceRefusal,
  type SourceFacts,
} from './convert-rules.js';

const phone4k: SourceFacts = {
  codec: 'avc1.640033',
  width: 3840,
  height: 2160,
  transfer: 'bt709',
  durationSeconds: 60,
  bytes: 300_000_000,
};

describe('which sources the device converts', () => {
  it('converts an 8-bit SDR 4K H.264 phone clip', () => {
    expect(sourceRefusal(phone4k)).toBeNull();
  });

  it.each([
    [{ transfer: 'pq' }, /HDR/],
    [{ transfer: 'hlg' }, /HDR/],
    [{ codec: 'hvc1.2.4.L153.B0', transfer: null }, /10-bit/],
    [{ codec: 'avc1.6e0033' }, /10-bit/],
    [{ codec: 'vp09.02.51.10' }, /10-bit/],
    [{ codec: null }, /no codec/],
  ] as Array<[Partial<SourceFacts>, RegExp]>)('leaves %o to the server', (change, reason) => {
    expect(sourceRefusal({ ...phone4k, ...change })).toMatch(reason);
  });

  it('leaves a source already near the mezzanine bitrate as it is', () => {
    const mezzanine = mezzanineTarget(3840, 2160).bitrate;
    expect(littleToGain(phone4k, mezzanine)).toBeNull();
    expect(littleToGain({ ...phone4k, bytes: 50_000_000 }, mezzanine)).toMatch(/already light \(6\.7 Mbit\/s\)/);
  });

  it('leaves a file cut short to the server: its index declares more video than the file holds', () => {
    expect(incompleteSource(11, 4.4)).toBe('incomplete: the index declares 11.0 s of video, the file holds 4.4 s');
    expect(incompleteSource(11, 10.6)).toBeNull();
    expect(incompleteSource(11.03, 11.03)).toBeNull();
  });

  it('keeps an 8-bit HEVC SDR clip for the device (its decoder decides)', () => {
    expect(sourceRefusal({ ...phone4k, codec: 'hvc1.1.6.L153.B0' })).toBeNull();
  });
});

describe('mezzanine size', () => {
  it('puts the long side at 1920 and keeps the shape, portrait too', () => {
    expect(mezzanineSize(3840, 2160)).toEqual({ width: 1920, height: 1080 });
    expect(mezzanineSize(2160, 3840)).toEqual({ width: 1080, height: 1920 });
    expect(mezzanineSize(4032, 3024)).toEqual({ width: 1920, height: 1440 });
  });
  it('never enlarges', () => {
    expect(mezzanineSize(1280, 720)).toEqual({ width: 1280, height: 720 });
  });
});

describe('what the device makes', () => {
  it('makes the clip format where it can: 720p (720x1280 upright) at 15 fps, any shape cropped to it', () => {
    expect(clipFormatTarget(3840, 2160)).toMatchObject({ width: 1280, height: 720, fps: 15, fit: 'cover' });
    expect(clipFormatTarget(2160, 3840)).toMatchObject({ width: 720, height: 1280 });
    expect(clipFormatTarget(4032, 3024)).toMatchObject({ width: 1280, height: 720, fit: 'cover' });
    expect(mezzanineTarget(3840, 2160)).toMatchObject({ width: 1920, height: 1080, fps: 30, fit: 'fill' });
  });

  it('puts a keyframe on exactly every 12th frame, at the timestamps mediabunny gives 10 minutes of frames', () => {
    const { keyFrameInterval, fps } = clipFormatTarget(1920, 1080);
    // mediabunny: output slot n at n / fps (a repeated frame at the slot before plus 1 / fps); a keyframe wherever
    // floor(timestamp / interval) changes.
    for (const at of [(n: number) => n / fps, (n: number) => (n ? (n - 1) / fps + 1 / fps : 0)]) {
      let last = -1;
      const keys: number[] = [];
      for (let n = 0; n < 600 * fps; n++) {
        const m = Math.floor(at(n) / keyFrameInterval);
        if (m !== last) keys.push(n);
        last = m;
      }
      expect(keys.every((k, i) => k === i * CLIP_FORMAT.keyFrameFrames)).toBe(true);
      expect(keys).toHaveLength((600 * fps) / CLIP_FORMAT.keyFrameFrames);
    }
  });

  it('judges the gain against what it would make: the clip format gains on a source the mezzanine would not', () => {
    const light = { ...phone4k, bytes: 30_000_000 };
    expect(littleToGain(light, mezzanineTarget(3840, 2160).bitrate)).toMatch(/already light/);
    expect(littleToGain(light, clipFormatTarget(3840, 2160).bitrate)).toBeNull();
  });
});

describe('convert or upload the original', () => {
  const base = {
    durationSeconds: 60,
    originalBytes: 300_000_000,
    uploadedBytes: 3_750_000,
    bytesPerSecond: 1_250_000,
    targetBitrate: mezzanineTarget(3840, 2160).bitrate,
  };
  it('waits for the first seconds', () => {
    expect(raceVerdict({ ...base, elapsedSeconds: 2, converted: 0.1 }).choice).toBe('wait');
  });
  it('converts when the device is faster than the uplink (10 Mbit/s, converting at 1x)', () => {
    // 3 s for 5 % of 60 s: 57 s left (86 s with the margin) + 37.5 MB at 1.25 MB/s (30 s) < 237 s for the rest.
    const v = raceVerdict({ ...base, elapsedSeconds: 3, converted: 0.05 });
    expect(v).toMatchObject({ choice: 'convert' });
    if (v.choice !== 'wait') expect(v.reason).toMatch(/10\.0 Mbit\/s/);
  });
  it('uploads the original when converting would take longer (a fast uplink, a slow device)', () => {
    expect(
      raceVerdict({
        ...base,
        elapsedSeconds: 4,
        converted: 0.01,
        bytesPerSecond: 12_500_000,
        uploadedBytes: 50_000_000,
      }).choice,
    ).toBe('original');
  });
  it("stretches the first seconds' pace: a conversion that only just looks faster keeps the original", () => {
    // 3 s for 2 % of 60 s: 147 s left at that pace, 220 s stretched; + 30 s for the mezzanine > 237 s.
    expect(raceVerdict({ ...base, elapsedSeconds: 3, converted: 0.02 }).choice).toBe('original');
    expect(raceVerdict({ ...base, elapsedSeconds: 3, converted: 0.03 }).choice).toBe('convert');
  });
  it('prices the converted upload at the bitrate of what the device makes: the clip format uploads in a seventh', () => {
    // 3 s for 2 % of 60 s: 220 s stretched. The mezzanine's 37.5 MB take 30 s (250 s > 237 s); the clip format's
    // 5.4 MB take 4.3 s (224.3 s < 237 s).
    const clipFormat = {
      ...base,
      elapsedSeconds: 3,
      converted: 0.02,
      targetBitrate: clipFormatTarget(720, 1280).bitrate,
    };
    const v = raceVerdict(clipFormat);
    expect(v).toMatchObject({ choice: 'convert' });
    if (v.choice !== 'wait') expect(v.reason).toMatch(/uploading 4\.3 s/);
  });
  it('decides once the race has run long enough with one side unmeasured', () => {
    expect(raceVerdict({ ...base, elapsedSeconds: 5, converted: 0, bytesPerSecond: null }).choice).toBe('wait');
    expect(raceVerdict({ ...base, elapsedSeconds: 13, converted: 0, bytesPerSecond: null }).choice).toBe('original');
    expect(raceVerdict({ ...base, elapsedSeconds: 13, converted: 0.2, bytesPerSecond: null }).choice).toBe('convert');
  });
});
