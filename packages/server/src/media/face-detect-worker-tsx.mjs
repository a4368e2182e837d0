// The detection thread's entry when the server runs from its TypeScript sources (tsx, vitest): Node 20 does not
// apply the parent's tsx loader to worker threads, so the thread loads face-detect-worker.ts through tsx itself.
import { tsImport } from 'tsx/esm/api';

await tsImport('./face-detect-worker.ts', import.meta.url);
