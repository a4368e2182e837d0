import { describe, expect, it } from 'vitest';
import {
  embedUrl,
  externalPlayerUrl,
  iframeCode,
  scriptTagCode,
  shareData,
  shareTour,
  unbrandedPlayerUrl,
} from './share-links.js';
import { cropRect, outputSize } from './thumbnail-crop.js';
import { tourPhase } from './tour-status.js';
import { reelFileName } from './reels-dialog.js';
import { activeReelCount } from './use-reels.js';

const ID = 'tour_0b6c9d9e-2a7e-4f61-9d55-6a3f3c1f1a10';

describe('share links', () => {
  it('shares the external player URL, embeds it with feedback off, and uses the spec text', () => {
    expect(externalPlayerUrl(ID, 'https://app.test/')).toBe(`https://app.test/playerext?tourId=${ID}`);
    expect(embedUrl(ID, 'https://app.test')).toBe(`https://app.test/playerext?tourId=${ID}&disabledControls=feedback`);
    expect(iframeCode(ID, 'A "big" <flat>', 'https://app.test')).toBe(
      `<iframe src="https://app.test/playerext?tourId=${ID}&amp;disabledControls=feedback" title="A &quot;big&quot; &lt;flat>" width="100%" height="600" style="border:0" allow="fullscreen; camera; microphone; clipboard-write"></iframe>`,
    );
    // The listing site's origin, when given, becomes hostOrigins (its window messages are obeyed).
    expect(iframeCode(ID, 'Loft', 'https://app.test', ['https://www.agency.test', 'http://localhost:8080'])).toContain(
      `src="https://app.test/playerext?tourId=${ID}&amp;disabledControls=feedback&amp;hostOrigins=https%3A%2F%2Fwww.agency.test,http%3A%2F%2Flocalhost%3A8080"`,
    );
    expect(scriptTagCode(ID, 'https://app.test/')).toBe(
      `<script src="https://app.test/player/tour-player.js"></script>\n<tour-player tour-id="${ID}" mode="external"></tour-player>`,
    );
    expect(shareData(ID, ' Loft ', 'https://app.test')).toEqual({
      title: 'Loft',
      text: 'Check out this Roomwalk Walkthrough: Loft',
      url: `https://app.test/playerext?tourId=${ID}`,
    });
  });

  it('puts liveViewing=true on every branded form when the owner offers live viewing, never on the unbranded link', () => {
    const base = 'https://app.test';
    expect(externalPlayerUrl(ID, base, true)).toBe(`${base}/playerext?tourId=${ID}&liveViewing=true`);
    expect(embedUrl(ID, base, [], true)).toBe(
      `${base}/playerext?tourId=${ID}&liveViewing=true&disabledControls=feedback`,
    );
    expect(iframeCode(ID, 'Loft', base, [], true)).toContain(
      `src="${base}/playerext?tourId=${ID}&amp;liveViewing=true&amp;disabledControls=feedback"`,
    );
    expect(scriptTagCode(ID, base, true)).toContain(
      `<tour-player tour-id="${ID}" mode="external" live-viewing></tour-player>`,
    );
    expect(shareData(ID, 'Loft', base, true).url).toBe(`${base}/playerext?tourId=${ID}&liveViewing=true`);
    expect(unbrandedPlayerUrl(ID, base)).not.toContain('liveViewing');
    expect(externalPlayerUrl(ID, base)).not.toContain('liveViewing');
  });

  it('uses the Web Share API when present and falls back to the clipboard', async () => {
    const copied: string[] = [];
    const copy = async (t: string) => void copied.push(t);
    const data = shareData(ID, 'Loft', 'https://app.test');
    const shared: unknown[] = [];
    expect(await shareTour(data, copy, { share: async (d?: ShareData) => void shared.push(d) })).toBe('shared');
    expect(shared).toEqual([data]);
    expect(
      await shareTour(data, copy, { share: async () => Promise.reject(new DOMException('x', 'AbortError')) }),
    ).toBe('cancelled');
    expect(await shareTour(data, copy, {} as Pick<Navigator, 'share'>)).toBe('copied');
    expect(copied).toEqual([`Check out this Roomwalk Walkthrough: Loft https://app.test/playerext?tourId=${ID}`]);
  });
});

describe('thumbnail crop at 16:9', () => {
  it('takes the largest 16:9 area at zoom 1 and keeps the crop inside the picture', () => {
    expect(cropRect(800, 600, { zoom: 1, cx: 400, cy: 300 })).toEqual({ sx: 0, sy: 75, sw: 800, sh: 450 });
    expect(cropRect(1920, 1080, { zoom: 2, cx: 0, cy: 0 })).toEqual({ sx: 0, sy: 0, sw: 960, sh: 540 });
    expect(cropRect(1920, 1080, { zoom: 2, cx: 5000, cy: 5000 })).toEqual({ sx: 960, sy: 540, sw: 960, sh: 540 });
    expect(outputSize({ sx: 0, sy: 0, sw: 3840, sh: 2160 })).toEqual({ width: 1280, height: 720 });
    expect(outputSize({ sx: 0, sy: 0, sw: 640, sh: 360 })).toEqual({ width: 640, height: 360 });
  });
});

describe('tour and reel states', () => {
  it('treats anything but PROCESSED and FAILED as processing', () => {
    expect(tourPhase('PROCESSED')).toBe('processed');
    expect(tourPhase('FAILED')).toBe('failed');
    expect(tourPhase('UPLOADING')).toBe('processing');
    expect(tourPhase('SOMETHING_NEW')).toBe('processing');
  });
  it('counts non-failed reels towards the limit and names downloads {key}_reel.mp4', () => {
    const r = (status: string) => ({ status: { status } });
    expect(activeReelCount([r('CREATED'), r('FAILED'), r('PROCESSING')])).toBe(2);
    expect(reelFileName('reels/abc123.mp4')).toBe('abc123_reel.mp4');
    expect(reelFileName('k9')).toBe('k9_reel.mp4');
  });
});
