/**
 * Loads the password and members-only screens (access-gate.ts) when a tour turns out to be protected. The script-tag
 * build replaces this module with one that imports `tour-player-gate.js` next to `tour-player.js` (scripts/build.mjs),
 * so public tours' visitors never download it.
 */
export const loadAccessGate = (): Promise<typeof import('./access-gate.js')> => import('./access-gate.js');
