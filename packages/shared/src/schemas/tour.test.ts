import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../error-codes.js';
import {
  checkVideoMeta,
  customMarkerNameSchema,
  fileExtensionSchema,
  isAcceptedThumbnailName,
  leadFormSchema,
  markerNameSchema,
  tourInfoSchema,
} from './tour.js';

describe('tour info', () => {
  it('requires a title of at most 50', () => {
    expect(tourInfoSchema.safeParse({ title: '' }).error?.issues[0]?.message).toBe('Title is required.');
    expect(tourInfoSchema.safeParse({ title: 'x'.repeat(51) }).error?.issues[0]?.message).toBe(
      'Maximum characters reached',
    );
    expect(tourInfoSchema.safeParse({ title: 'x'.repeat(50) }).success).toBe(true);
  });
  it('limits description and listing link to 300', () => {
    expect(tourInfoSchema.safeParse({ title: 't', description: 'x'.repeat(301) }).error?.issues[0]?.message).toBe(
      'Maximum characters reached',
    );
    expect(
      tourInfoSchema.safeParse({ title: 't', listingLink: `https://a.co/${'x'.repeat(300)}` }).error?.issues[0]
        ?.message,
    ).toBe('Maximum characters reached');
  });
});

describe('video checks', () => {
  it.each([
    [
      { durationSeconds: 9.9, width: 1920, height: 1080 },
      ERROR_CODES.VIDEO_TOO_SHORT,
      'Video cannot be less than 10 seconds',
    ],
    [
      { durationSeconds: 600.5, width: 1920, height: 1080 },
      ERROR_CODES.VIDEO_TOO_LONG,
      'Video cannot be longer than 10 minutes',
    ],
    [{ durationSeconds: 30, width: 1280, height: 719 }, ERROR_CODES.VIDEO_RESOLUTION_LOW, 'Video Resolution Too Low'],
    [{ durationSeconds: 30, width: 719, height: 1280 }, ERROR_CODES.VIDEO_RESOLUTION_LOW, 'Video Resolution Too Low'],
  ])('rejects %o', (meta, code, message) => {
    expect(checkVideoMeta(meta)).toEqual({ code, message });
  });
  it('accepts the edges: 10 s, 600 s, 1280x720 and 720x1280', () => {
    expect(checkVideoMeta({ durationSeconds: 10, width: 1280, height: 720 })).toBeNull();
    expect(checkVideoMeta({ durationSeconds: 600, width: 720, height: 1280 })).toBeNull();
  });
  it('rejects a NaN duration as too short', () => {
    expect(checkVideoMeta({ durationSeconds: Number.NaN, width: 1920, height: 1080 })?.code).toBe(
      ERROR_CODES.VIDEO_TOO_SHORT,
    );
  });
  it('accepts video extensions only', () => {
    expect(fileExtensionSchema.parse('.MP4')).toBe('mp4');
    expect(fileExtensionSchema.safeParse('exe').success).toBe(false);
  });
});

describe('thumbnails, markers and leads', () => {
  it('accepts .jpg, .jpeg and .png thumbnails only', () => {
    expect(['a.JPG', 'b.jpeg', 'c.png'].every(isAcceptedThumbnailName)).toBe(true);
    expect(isAcceptedThumbnailName('d.gif')).toBe(false);
  });
  it('has the marker name messages', () => {
    expect(markerNameSchema.safeParse('  ').error?.issues[0]?.message).toBe('Name cannot be empty');
    expect(customMarkerNameSchema.safeParse('').error?.issues[0]?.message).toBe('Please enter a marker name');
  });
  it('validates the live-viewing lead form', () => {
    const ok = { name: 'Vi', email: ' V@X.CO ', turnstileToken: 't' };
    expect(leadFormSchema.parse(ok).email).toBe('v@x.co');
    expect(leadFormSchema.safeParse({ ...ok, name: '' }).error?.issues[0]?.message).toBe('Name is a required field.');
    expect(leadFormSchema.safeParse({ ...ok, email: 'x' }).error?.issues[0]?.message).toBe('Not a valid email.');
    expect(leadFormSchema.safeParse({ ...ok, turnstileToken: '' }).success).toBe(false);
    expect(leadFormSchema.safeParse({ ...ok, contactNumber: '' }).success).toBe(true);
  });
});
