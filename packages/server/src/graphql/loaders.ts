/**
 * Per-request batching (DataLoader): where a list asks the same of each item (the Team pages ask each of 100 members
 * for their profile, tour figures and top five tours), the keys asked while one level of the list resolves are read
 * with one statement instead of one each. No caching beyond the batch (`cache: false`): a subscription's context
 * lives as long as its socket, and a mutation's answer must read what it just wrote.
 */
import DataLoader from 'dataloader';
import type { Context } from './builder.js';

const perRequest = new WeakMap<Context, Map<string, DataLoader<string, unknown>>>();

/**
 * Loads `key` through the request's batch named `name`: `batch` reads many keys at once and answers a map; a key it
 * does not answer gets `fallback`.
 */
export function loadBatched<V>(
  ctx: Context,
  name: string,
  batch: (keys: readonly string[]) => Promise<Map<string, V>>,
  key: string,
  fallback: V,
): Promise<V> {
  let loaders = perRequest.get(ctx);
  if (!loaders) {
    loaders = new Map();
    perRequest.set(ctx, loaders);
  }
  let loader = loaders.get(name) as DataLoader<string, V> | undefined;
  if (!loader) {
    loader = new DataLoader<string, V>(
      async (keys) => {
        const found = await batch(keys);
        return keys.map((k) => (found.has(k) ? (found.get(k) as V) : fallback));
      },
      { cache: false },
    );
    loaders.set(name, loader as DataLoader<string, unknown>);
  }
  return loader.load(key);
}
