import { describe, expect, it } from 'vitest';
import { NOT_A_VIDEO, probeVideo, videoExtension } from './read-video-meta.js';

describe('upload extension', () => {
  it('sends the file extension, else one from the MIME type', () => {
    expect(videoExtension({ name: 'Walk.MOV', type: 'video/quicktime' })).toBe('mov');
    expect(videoExtension({ name: 'clip', type: 'video/quicktime' })).toBe('mov');
    expect(videoExtension({ name: 'clip', type: '' })).toBe('mp4');
  });
});

describe('probeVideo: container first, then <video>, then the server decides', () => {
  const meta = { durationSeconds: 12, width: 720, height: 1280 };
  const fails = async () => {
    throw new Error('no');
  };
  it('takes the container when it can be parsed, without asking the <video> element', async () => {
    let asked = false;
    const r = await probeVideo(new Blob([]), {
      container: async () => meta,
      element: async () => {
        asked = true;
        return meta;
      },
    });
    expect(r).toEqual({ ...meta, source: 'container' });
    expect(asked).toBe(false);
  });
  it('falls back to the <video> element when the container cannot be parsed (WebM, MKV)', async () => {
    expect(await probeVideo(new Blob([]), { container: fails, element: async () => meta })).toEqual({
      ...meta,
      source: 'video-element',
    });
  });
  it('answers null (upload it; processing decides) when neither can read the file', async () => {
    expect(await probeVideo(new Blob([]), { container: fails, element: fails })).toBeNull();
  });
  // Random bytes: mp4box's container check (the real one) sees no MP4/MOV box at the start.
  const noise = () => Uint8Array.from({ length: 64 * 1024 }, (_, i) => (i * 7919 + 13) % 251);
  it('answers NOT_A_VIDEO for a file named .mp4 that is no MP4/MOV and that <video> cannot play', async () => {
    expect(await probeVideo(new File([noise()], 'walkthrough.mp4', { type: 'video/mp4' }), { element: fails })).toBe(
      NOT_A_VIDEO,
    );
    expect(await probeVideo(new File([noise()], 'walkthrough.MOV'), { element: fails })).toBe(NOT_A_VIDEO);
  });
  it('leaves the verdict to the server when the file does not claim to be an MP4/MOV, or starts like one', async () => {
    expect(
      await probeVideo(new File([noise()], 'walkthrough.mkv', { type: 'video/x-matroska' }), { element: fails }),
    ).toBeNull();
    const ftyp = Uint8Array.from([
      0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32, 0, 0, 0, 0, 0x6d, 0x70, 0x34, 0x32, 0x69, 0x73,
      0x6f, 0x6d,
    ]);
    expect(
      await probeVideo(new File([ftyp, noise()], 'cut.mp4', { type: 'video/mp4' }), { element: fails }),
    ).toBeNull();
  });
});
