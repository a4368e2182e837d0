/**
 * Loads the live panel chunk (lead form, video panels, the live-call module). Only called when live viewing is on and
 * the start button is pressed. The script-tag build replaces this module with one that imports
 * `tour-player-live.js` next to `tour-player.js` (scripts/build.mjs), so the chunk never weighs on the main bundle.
 */
export const loadLivePanel = (): Promise<unknown> => import('./live-panel.js');
