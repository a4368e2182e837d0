/**
 * Loads the lead gate's chunk (lead-gate-session.ts: the form, the wait, the continuation) when a tour's gate asks.
 * The script-tag build replaces this module with one that imports `tour-player-lead-gate.js` next to `tour-player.js`
 * (scripts/build.mjs), so tours without a gate never download it.
 */
export const loadLeadGate = (): Promise<typeof import('./lead-gate-session.js')> => import('./lead-gate-session.js');
