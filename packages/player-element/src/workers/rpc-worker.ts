/// <reference lib="webworker" />
/**
 * The decode worker's side of its message protocol (worker-bridge.ts is the main thread's): a call `{ id, m, a, cb }`
 * runs `api[m](...a)` and answers `{ id, r }` or `{ id, e }`; the argument at `cb` is a callback, each call of which
 * posts `{ id, b, s }` and resolves when the main thread acknowledges `{ ack: id, s }` (so batches are not sent
 * faster than the main thread takes them). Values marked with transfer() are transferred, not copied.
 * (It replaces comlink: a few hundred bytes instead of 1.7 KB gzip on each side.)
 */
const transfers = new WeakMap<object, Transferable[]>();
const acks = new Map<string, () => void>();

/** Marks `value`'s buffers or bitmaps to be transferred when it is posted. */
export function transfer<T>(value: T, list: Transferable[]): T {
  transfers.set(value as object, list);
  return value;
}

const listOf = (v: unknown): Transferable[] => (v && typeof v === 'object' ? transfers.get(v) : undefined) ?? [];

// biome-ignore lint/suspicious/noExplicitAny: the API's methods take their own arguments.
export function expose(api: Record<string, (...args: any[]) => unknown>): void {
  const scope = self as unknown as DedicatedWorkerGlobalScope;
  scope.onmessage = async ({ data: d }: MessageEvent) => {
    if (d.ack !== undefined) {
      const key = `${d.ack}:${d.s}`;
      acks.get(key)?.();
      acks.delete(key);
      return;
    }
    const { id, m, a, cb } = d as { id: number; m: string; a: unknown[]; cb?: number };
    let seq = 0;
    if (cb !== undefined)
      a[cb] = (b: unknown) =>
        new Promise<void>((resolve) => {
          const s = seq++;
          acks.set(`${id}:${s}`, resolve);
          scope.postMessage({ id, b, s }, listOf(b));
        });
    try {
      const r = await api[m]!(...a);
      scope.postMessage({ id, r }, listOf(r));
    } catch (e) {
      scope.postMessage({ id, e: e instanceof Error ? e.message : String(e) });
    }
  };
}
