import { describe, expect, it } from 'vitest';
import { probeVideo, videoExtension } from './read-video-meta.js';

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
    expect(await probeVideo(new Blob([]), { container: fails, element: async () => meta })).toEqual({ ...meta, source: 'video-element' });
  });
  it('answers null (upload it; processing decides) when neither can read the file', async () => {
    expect(await probeVideo(new Blob([]), { container: fails, element: fails })).toBeNull();
  });
});
