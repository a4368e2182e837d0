import { loadEditingChunk } from './load.js';

type EditingModule = typeof import('./index.js');

let loaded: EditingModule | undefined;
let pending: Promise<EditingModule> | undefined;

/** The editing chunk once it is loaded (synchronously, for render), else undefined. */
export const editingModule = (): EditingModule | undefined => loaded;

/** Loads the editing chunk once; a failed load is tried again on the next call. */
export function loadEditing(): Promise<EditingModule> {
  pending ??= loadEditingChunk().then(
    (m) => (loaded = m),
    (e: unknown) => {
      pending = undefined;
      throw e;
    },
  );
  return pending;
}
