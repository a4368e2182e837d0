/**
 * Loads the editing chunk (the drawer's edit UI, marker add / rename / delete, AI markers). The script-tag build
 * replaces this module with one that imports `tour-player-edit.js` next to `tour-player.js` (scripts/build.mjs), so
 * visitors of a tour (modes external, preview, agent) never download it.
 */
export const loadEditingChunk = (): Promise<typeof import('./index.js')> => import('./index.js');
