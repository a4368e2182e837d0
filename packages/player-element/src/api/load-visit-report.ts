/**
 * Loads the visit report (visit-report.ts, room-tracker.ts) on idle after the tour loads. The script-tag build replaces
 * this module with one that imports `tour-player-visit.js` next to `tour-player.js` (scripts/build.mjs), so the visit
 * and room tracking code never weighs on the main bundle's 30 KB gzip budget.
 */
export const loadVisitReport = (): Promise<typeof import('./visit-report.js')> => import('./visit-report.js');
