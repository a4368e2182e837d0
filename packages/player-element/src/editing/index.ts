// The editing chunk (tour-player-edit.js in the script-tag build): loaded only in edit mode, or when a super admin's AI
// generation of this tour is to be resumed.
export { DrawerEditor } from './drawer-editor.js';
export { add, rename, remove, generate, listen } from './markers-editing.js';
