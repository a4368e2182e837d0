/**
 * The tour of the room analytics journey (room-analytics.spec.ts), made by the real pipeline on the running
 * server: an agent signed up through the API and activated from the development outbox, a generated 12 s walkthrough
 * uploaded and processed, and two named rooms (Kitchen, Master Bedroom) as fast-travel markers.
 */
import { cachedVideoSync } from '../../../../scripts/test-video-cache.mjs';
import { addMarkers, gql, signUpAgent, uploadTour } from '../embed-support.js';

export interface AnalyticsTour {
  tourId: string;
  /** The agent's access token (to read the figures the server has while the journey waits on a beacon). */
  token: string;
  totalFrames: number;
  kitchenFrame: number;
  bedroomFrame: number;
}

/** The 12 s walk, made once per machine (scripts/test-video-cache.mjs; the server's tests use the same one). */
export function roomsVideo(): string {
  return cachedVideoSync(
    [
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1280x720:rate=30:duration=12',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
    ],
    { name: 'landscape-12s.mp4' },
  );
}

/** Signs the agent up and in (API), uploads and processes the tour, and names its rooms. */
export async function makeAnalyticsTour(
  base: string,
  agent: { email: string; password: string; name: string; surname: string },
  title: string,
): Promise<AnalyticsTour> {
  const token = await signUpAgent(base, agent);
  // A shared CI machine under load takes minutes for a 12 s video.
  const { tourId, totalFrames } = await uploadTour(base, token, roomsVideo(), { title, timeoutMs: 300_000 });
  const kitchenFrame = Math.round(totalFrames * 0.3);
  const bedroomFrame = Math.round(totalFrames * 0.65);
  await addMarkers(base, token, tourId, [
    ['Kitchen', kitchenFrame],
    ['Master Bedroom', bedroomFrame],
  ]);
  return { tourId, token, totalFrames, kitchenFrame, bedroomFrame };
}

/** The tour's figures as the server has them now (the last 7 days). */
export async function serverFigures(
  base: string,
  t: AnalyticsTour,
): Promise<{ visits: number; rooms: Array<{ name: string; seconds: number; visits: number }> }> {
  const d = await gql<{
    tourAnalytics: { visits: number; rooms: Array<{ name: string; seconds: number; visits: number }> };
  }>(
    base,
    'query($id: ID!, $from: DateTime) { tourAnalytics(tourId: $id, from: $from) { visits rooms { name seconds visits } } }',
    { id: t.tourId, from: new Date(Date.now() - 6 * 86_400_000).toISOString() },
    t.token,
  );
  return d.tourAnalytics;
}
