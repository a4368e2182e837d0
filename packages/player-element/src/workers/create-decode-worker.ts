/**
 * Starts one decode worker. In development and tests the worker module is loaded from source;
 * the build swaps this module for one that starts the worker from an inlined bundle (a Blob URL),
 * so the script-tag bundle works when hosted on another origin than the page.
 */
export function createDecodeWorker(): Worker {
  return new Worker(new URL('./decode-worker.ts', import.meta.url), { type: 'module', name: 'tour-decode' });
}
