/** Tutorial state: firstView and available, stored locally; reset, complete, dismiss. */
import { safeLocalStorage } from '@roomwalk/shared';

export interface TutorialState {
  firstView: boolean;
  available: boolean;
}

const TUTORIAL_KEY = 'roomwalk.tutorial';
const DEFAULT: TutorialState = { firstView: true, available: true };

export function createTutorialStore(storage: Storage = safeLocalStorage()) {
  const listeners = new Set<() => void>();
  const read = (): TutorialState => {
    try {
      const v = JSON.parse(storage.getItem(TUTORIAL_KEY) ?? 'null') as Partial<TutorialState> | null;
      if (v && typeof v.firstView === 'boolean' && typeof v.available === 'boolean')
        return { firstView: v.firstView, available: v.available };
    } catch {
      /* fall through to the default */
    }
    return DEFAULT;
  };
  let state = read();
  const write = (next: TutorialState) => {
    state = next;
    storage.setItem(TUTORIAL_KEY, JSON.stringify(next));
    for (const l of listeners) l();
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
