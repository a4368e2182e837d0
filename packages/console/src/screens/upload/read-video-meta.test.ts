import { describe, expect, it } from 'vitest';
import { videoExtension } from './read-video-meta.js';

describe('upload extension', () => {
  it('sends the file extension, else one from the MIME type', () => {
    expect(videoExtension({ name: 'Walk.MOV', type: 'video/quicktime' })).toBe('mov');
    expect(videoExtension({ name: 'clip', type: 'video/quicktime' })).toBe('mov');
    expect(videoExtension({ name: 'clip', type: '' })).toBe('mp4');
  });
});
