/**
 * Duration, size and rotation from the container, on real files made with ffmpeg (e2e/support/phone-videos.ts):
 * HEVC 10-bit rotated .mov, VFR, 4K60, moov first or last; a WebM is not a container this reader knows.
 */
import { openAsBlob } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkVideoMeta } from '@roomwalk/shared';
import { NotAContainerError, readContainerMeta, rotationOf } from './container-meta.js';
import { PHONE_VIDEOS, phoneVideo } from '../../../e2e/support/phone-videos.js';

describe('container checks (mp4box, no decoding)', () => {
  for (const which of ['hevcRotated', 'vfr', 'uhd60', 'whole'] as const) {
    it(`reads ${which}: duration, displayed size after rotation, codec; the spec's checks pass`, async () => {
      const meta = await readContainerMeta(await openAsBlob(await phoneVideo(which)));
      const want = PHONE_VIDEOS[which].expect;
      expect(meta.durationSeconds).toBeGreaterThan(10.5);
      expect(meta.durationSeconds).toBeLessThan(11.5);
      // A quarter turn either way (the matrix's sign depends on the tool) makes a portrait video.
      expect({ width: meta.width, height: meta.height, quarter: meta.rotation % 180 }).toEqual({
        width: want.width,
        height: want.height,
        quarter: want.rotation % 180,
      });
      expect(meta.codec.startsWith(want.codecPrefix)).toBe(true);
      expect(checkVideoMeta(meta)).toBeNull();
    }, 300_000);
  }

  it('finds the moov after the media data (reading box headers, not the mdat)', async () => {
    // vfr.mp4 is written without faststart: ftyp, free, mdat, then moov at the end.
    const file = await phoneVideo('vfr');
    const blob = await openAsBlob(file);
    let read = 0;
    const counting = new Proxy(blob, {
      get(target, prop) {
        if (prop === 'slice')
          return (a?: number, b?: number) => {
            const s = target.slice(a, b);
            read += s.size;
            return s;
          };
        const v = Reflect.get(target, prop, target);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const meta = await readContainerMeta(counting);
    expect(meta.width).toBe(1280);
    expect(read).toBeLessThan(blob.size / 4);
  }, 300_000);

  it('refuses a WebM as not an MP4/MOV (the screen then asks the <video> element)', async () => {
    await expect(readContainerMeta(await openAsBlob(await phoneVideo('webm')))).rejects.toBeInstanceOf(
      NotAContainerError,
    );
    await expect(readContainerMeta((await openAsBlob(await phoneVideo('webm'))).slice(0, 64))).rejects.toBeInstanceOf(
      NotAContainerError,
    );
  }, 300_000);

  it('turns a display matrix into degrees', () => {
    expect(rotationOf([0, 65536, 0, -65536, 0, 0, 0, 0, 1073741824])).toBe(90);
    expect(rotationOf([65536, 0, 0, 0, 65536, 0, 0, 0, 1073741824])).toBe(0);
    expect(rotationOf([0, -65536, 0, 65536, 0, 0, 0, 0, 1073741824])).toBe(270);
    expect(rotationOf([-65536, 0, 0, 0, -65536, 0, 0, 0, 1073741824])).toBe(180);
  });
});
