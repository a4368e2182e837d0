import { describe, expect, it } from 'vitest';
import { embedUrl, externalPlayerUrl, iframeCode, shareData, shareTour } from './share-links.js';
import { cropRect, outputSize } from './thumbnail-crop.js';
import { tourPhase } from './tour-status.js';
import { activeReelCount, reelFileName } from './reels-dialog.js';
import { embeddedTourId, playerAttributes, readPlayerFlags, showAiEdit, EMBED_SAMPLE_TOUR_ID } from '../player/player-flags.js';
import { menuItems, menuTitle } from '../player/player-menu.js';
import { modeForPath } from '../player/player-page.js';
import { anyProcessing, groupByRoom, shotActions } from '../shots/shot-rules.js';
import { videoExtension } from '../upload/read-video-meta.js';

const ID = 'tour_0b6c9d9e-2a7e-4f61-9d55-6a3f3c1f1a10';

describe('share links', () => {
  it('shares the external player URL, embeds it with feedback off, and uses the spec text', () => {
    expect(externalPlayerUrl(ID, 'https://app.test/')).toBe(`https://app.test/playerext?tourId=${ID}`);
    expect(embedUrl(ID, 'https://app.test')).toBe(`https://app.test/playerext?tourId=${ID}&disabledControls=feedback`);
    expect(iframeCode(ID, 'A "big" <flat>', 'https://app.test')).toBe(
      `<iframe src="https://app.test/playerext?tourId=${ID}&amp;disabledControls=feedback" title="A &quot;big&quot; &lt;flat>" width="100%" height="600" style="border:0" allow="fullscreen; camera; microphone; clipboard-write" allowfullscreen></iframe>`,
    );
    expect(shareData(ID, ' Loft ', 'https://app.test')).toEqual({ title: 'Loft', text: 'Check out this Roomwalk Walkthrough: Loft', url: `https://app.test/playerext?tourId=${ID}` });
  });

  it('uses the Web Share API when present and falls back to the clipboard', async () => {
    const copied: string[] = [];
    const copy = async (t: string) => void copied.push(t);
    const data = shareData(ID, 'Loft', 'https://app.test');
    const shared: unknown[] = [];
    expect(await shareTour(data, copy, { share: async (d?: ShareData) => void shared.push(d) })).toBe('shared');
    expect(shared).toEqual([data]);
    expect(await shareTour(data, copy, { share: async () => Promise.reject(new DOMException('x', 'AbortError')) })).toBe('cancelled');
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

describe('player flags', () => {
  it('maps the address flags onto element attributes', () => {
    const f = readPlayerFlags(`?tourId=${ID}&disabledControls=Menu, MARKERS,bogus&liveViewing=true&hiRes=false&debugPlayer=1&disableCookies=true`);
    expect(f).toMatchObject({ tourId: ID, disabledControls: ['menu', 'markers'], liveViewing: true, hostEvents: true, hiRes: false, debug: true, disableCookies: true });
    expect(playerAttributes(f)).toEqual({ 'disabled-controls': 'menu,markers', 'live-viewing': '', 'host-events': '', 'hi-res': 'false', debug: '' });
    expect(playerAttributes(readPlayerFlags(`?tourId=${ID}&hostEventEnabled=true`))).toEqual({ 'host-events': '' });
    expect(playerAttributes(readPlayerFlags(`?tourId=${ID}`))).toEqual({});
  });
  it('shows AI Edit for enableAIEdit=true unless ai-edit is disabled or live viewing is on', () => {
    expect(showAiEdit('?enableAIEdit=true')).toBe(true);
    expect(showAiEdit('?enableAIEdit=TRUE&disabledControls=ai-edit')).toBe(false);
    expect(showAiEdit('?enableAIEdit=true&liveViewing=true')).toBe(false);
    expect(showAiEdit('?enableAIEdit=yes')).toBe(false);
  });
  it('takes the embed id from the last segment, or the sample for /embedded_example', () => {
    expect(embeddedTourId('/embedded_example')).toBe(EMBED_SAMPLE_TOUR_ID);
    expect(embeddedTourId('/embedded_example/')).toBe(EMBED_SAMPLE_TOUR_ID);
    expect(embeddedTourId(`/embedded_example/${ID}`)).toBe(ID);
  });
  it('has the menus of each mode', () => {
    expect(menuTitle('edit')).toBe('Player Menu (Edit Mode)');
    expect(menuItems('edit').map((i) => i.label)).toEqual(['Sharing Options', 'Share from here', 'Preview Tour', 'Save & Exit']);
    expect(menuItems('preview').map((i) => i.label)).toEqual(['Edit Tour', 'Share from here', 'Exit Preview']);
    expect(menuItems('external').map((i) => i.label)).toEqual(['Share from here', 'Exit Tour']);
    expect(modeForPath('/editplayer')).toBe('edit');
    expect(modeForPath('/agentplayer/')).toBe('agent');
    expect(modeForPath('/playerext')).toBe('external');
  });
});

describe('professional photo rules', () => {
  it('offers Enhance without an enhanced image, re-enhance with one, Stage only when enhanced and not staged, nothing while processing', () => {
    expect(shotActions({ id: '1', shotStatus: 'COMPLETED' })).toEqual({ enhance: true, reEnhance: false, stage: false });
    expect(shotActions({ id: '1', shotStatus: 'COMPLETED', enhancedImageURI: 'e' })).toEqual({ enhance: false, reEnhance: true, stage: true });
    expect(shotActions({ id: '1', shotStatus: 'FAILED', enhancedImageURI: 'e', stagedImageURI: 's' })).toEqual({ enhance: false, reEnhance: true, stage: false });
    expect(shotActions({ id: '1', shotStatus: 'PROCESSING' })).toEqual({ enhance: false, reEnhance: false, stage: false });
  });
  it('groups by room type with unknown rooms last', () => {
    const g = groupByRoom([{ id: 'a', shotStatus: 'COMPLETED' }, { id: 'b', shotStatus: 'COMPLETED', roomType: 'Kitchen' }, { id: 'c', shotStatus: 'PROCESSING', roomType: 'Kitchen' }], 'Other');
    expect(g.map((x) => [x.room, x.shots.map((s) => s.id)])).toEqual([['Kitchen', ['b', 'c']], ['Other', ['a']]]);
    expect(anyProcessing(g.flatMap((x) => x.shots))).toBe(true);
  });
});

describe('upload extension', () => {
  it('sends the file extension, else one from the MIME type', () => {
    expect(videoExtension({ name: 'Walk.MOV', type: 'video/quicktime' })).toBe('mov');
    expect(videoExtension({ name: 'clip', type: 'video/quicktime' })).toBe('mov');
    expect(videoExtension({ name: 'clip', type: '' })).toBe('mp4');
  });
});
