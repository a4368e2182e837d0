/**
 * Makes every video the journeys upload, into the test videos' cache (scripts/test-video-cache.mjs), so `npm test`
 * can make them beside the type check (scripts/test.sh) instead of inside a journey. The journeys ask for the same
 * files and find them made; run alone, a journey makes what it needs itself.
 */
import { testVideo } from '../embed-support.js';
import { roomsVideo } from './analytics-tour.js';
import { PHONE_VIDEOS, phoneVideo, truncatedVideo, type PhoneVideo } from './phone-videos.js';

const t0 = Date.now();
for (const which of Object.keys(PHONE_VIDEOS) as PhoneVideo[]) await phoneVideo(which);
await truncatedVideo();
// makeRealTour's walks: the 11 s landscape one, phone-touch's 60 s one and the portrait one; the analytics tour's.
testVideo();
testVideo(60);
testVideo(11, true);
roomsVideo();
console.log(`[journeys' videos] ready in ${Math.round((Date.now() - t0) / 1000)} s`);
