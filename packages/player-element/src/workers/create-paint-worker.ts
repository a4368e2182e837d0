/**
 * Starts the paint worker from source (development, tests); the build inlines it as a Blob URL like the decode worker.
 */
export function createPaintWorker(): Worker {
  return new Worker(new URL('./paint-worker.ts', import.meta.url), { type: 'module', name: 'tour-paint' });
}
