import { describe, expect, it } from 'vitest';
import { VISIT_BEACON_LIMITS } from '../constants.js';
import { visitBeaconSchema } from './visit-beacon.js';

const base = { tourId: 'tour_x', visitorId: 'visitor-1234' };
const firstMessage = (v: unknown) => visitBeaconSchema.safeParse(v).error?.issues[0]?.message;

describe('visit beacon', () => {
  it("reads the player's start beacon with its time and rooms reached at 0", () => {
    expect(visitBeaconSchema.parse(base)).toEqual({ ...base, secondsSpent: 0, roomsReached: 0 });
  });

  it('refuses what lies beyond the wire bounds in words a developer can act on', () => {
    expect(firstMessage({ visitorId: 'visitor-1234' })).toBe('This is not a valid tour link.');
    expect(firstMessage({ ...base, visitorId: 'short' })).toBe('The visitor id is too short.');
    expect(firstMessage({ ...base, secondsSpent: VISIT_BEACON_LIMITS.secondsMax + 1 })).toBe(
      'Too many seconds for one visit.',
    );
    expect(
      firstMessage({
        ...base,
        segments: Array.from({ length: VISIT_BEACON_LIMITS.segmentsMax + 1 }, () => ({ room: 'A', seconds: 1 })),
      }),
    ).toBe('Too many room segments for one visit.');
    expect(
      firstMessage({ ...base, segments: [{ room: 'x'.repeat(VISIT_BEACON_LIMITS.roomNameMax + 1), seconds: 1 }] }),
    ).toBe('A room name is too long.');
    expect(firstMessage({ ...base, device: 'watch' })).toBe('The device must be phone, tablet or desktop.');
  });
});
