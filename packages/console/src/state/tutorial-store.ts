/** Tutorial state (accounts §4): firstView and available, stored locally; reset, complete, dismiss. */
import { safeLocalStorage } from '@roomwalk/shared';
import { useSyncExternalStore } from 'react';

export interface TutorialState {
  firstView: boolean;
  available: boolean;
}

export const TUTORIAL_KEY = 'roomwalk.tutorial';
const DEFAULT: TutorialState = { firstView: true, available: true };

export function createTutorialStore(storage: Storage = safeLocalStorage()) {
  const listeners = new Set<() => void>();
  const read = (): TutorialState => {
    try {
      const v = JSON.parse(storage.getItem(TUTORIAL_KEY) ?? 'null') as Partial<TutorialState> | null;
      if (v && typeof v.firstView === 'boolean' && typeof v.available === 'boolean') return { firstView: v.firstView, available: v.available };
    } catch {
      /* fall through to the default */
    }
    return DEFAULT;
  };
  let state = read();
  const write = (next: TutorialState) => {
    state = next;
    storage.setItem(TUTORIAL_KEY, JSON.stringify(next));
    listeners.forEach((l) => l());
  };
  return {
    getState: () => state,
    subscribe(l: () => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    reset: () => write({ firstView: true, available: true }),
    complete: () => write({ ...state, firstView: false }),
    dismiss: () => write({ ...state, available: false }),
  };
}

export type TutorialStore = ReturnType<typeof createTutorialStore>;
let shared: TutorialStore | null = null;
export const tutorialStore = (): TutorialStore => (shared ??= createTutorialStore());

export function useTutorial(store: TutorialStore = tutorialStore()) {
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  return { ...state, reset: store.reset, complete: store.complete, dismiss: store.dismiss };
}
