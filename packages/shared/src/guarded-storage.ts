/**
 * One guarded store for everything the player and the console keep in the visitor's browser (cookie choice,
 * capturedDetails, tutorial, AI-marker resume, visitor id, session). A cross-site iframe whose browser blocks
 * third-party storage (Chrome with third-party cookies blocked, Incognito, Safari) throws a SecurityError on the mere
 * `window.localStorage` read; a full or disabled store throws on write. Here every access is caught and the value is
 * kept in memory instead, so the page goes on for this visit. It implements `Storage`, so code that takes a Storage
 * (stores, tests) takes it unchanged.
 */

export type StorageKind = 'localStorage' | 'sessionStorage';

/** The Web Storage interface (the DOM's `Storage`, which this package's non-DOM build does not know). */
export type WebStorage = {
  readonly length: number;
  clear(): void;
  getItem(key: string): string | null;
  key(index: number): string | null;
  removeItem(key: string): void;
  setItem(key: string, value: string): void;
};

/** A Storage that never throws: the browser's when it answers, else memory for this page's life. */
export function guardedStorage(
  kind: StorageKind = 'localStorage',
  host: () => WebStorage | undefined = () =>
    (globalThis as unknown as Record<StorageKind, WebStorage | undefined>)[kind],
): WebStorage {
  // Values written or removed during this visit that the browser refused; they win over its (stale) copy.
  const memory = new Map<string, string | null>();
  const run = <T>(f: (s: WebStorage) => T): T | undefined => {
    try {
      const s = host();
      return s ? f(s) : undefined;
    } catch {
      return undefined;
    }
  };
  const put = (key: string, value: string | null) => {
    if (run((s) => (value === null ? s.removeItem(key) : s.setItem(key, value), 1))) memory.delete(key);
    else memory.set(key, value);
  };
  const keys = (): string[] => {
    const all = new Set(run((s) => Object.keys(s)) ?? []);
    memory.forEach((v, k) => {
      if (v === null) all.delete(k);
      else all.add(k);
    });
    return [...all];
  };
  return {
    getItem: (key: string) => (memory.has(key) ? memory.get(key)! : (run((s) => s.getItem(key)) ?? null)),
    setItem: (key: string, value: string) => put(key, String(value)),
    removeItem: (key: string) => put(key, null),
    clear: () => {
      run((s) => s.clear());
      memory.clear();
    },
    key: (index: number) => keys()[index] ?? null,
    get length() {
      return keys().length;
    },
  };
}

let local: WebStorage | undefined;
let session: WebStorage | undefined;
/** The page's guarded localStorage (one per page, so memory fallbacks are shared by every reader). */
export const safeLocalStorage = (): WebStorage => (local ??= guardedStorage('localStorage'));
/** The page's guarded sessionStorage. */
export const safeSessionStorage = (): WebStorage => (session ??= guardedStorage('sessionStorage'));

export const VISITOR_ID_KEY = 'roomwalk.visitorId';

/** A fresh anonymous visitor id (a UUID where the browser makes one). */
export const newVisitorId = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `v-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/** An anonymous id for this browser (kept while storage allows, else for this page's life). */
export function visitorId(storage: WebStorage = safeLocalStorage()): string {
  const existing = storage.getItem(VISITOR_ID_KEY);
  if (existing) return existing;
  const id = newVisitorId();
  storage.setItem(VISITOR_ID_KEY, id);
  return id;
}
