/**
 * Loads the `<video>` fallback, which only browsers without WebCodecs need. The script-tag build replaces this module
 * with one that imports `tour-player-fallback.js` next to `tour-player.js` (scripts/build.mjs), so the fallback never
 * weighs on the main bundle.
 */
export const loadVideoFallback = (): Promise<typeof import('./video-fallback.js')> => import('./video-fallback.js');
