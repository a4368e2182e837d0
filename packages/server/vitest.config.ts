import { createRequire } from 'node:module';
import { configDefaults, defineProject } from 'vitest/config';

const require = createRequire(import.meta.url);

/**
 * Files that measure this process's own CPU or timing (query cost budgets, answer times that must not tell accounts
 * apart). They run in the `server-isolated` project (vitest.isolated.config.ts), each in a fresh process, so nothing
 * an earlier file left behind (its heap to collect, its timers) is counted in their figures.
 */
export const MEASURES_OWN_CPU = [
  'test/hostile/graphql-cost.test.ts',
  'test/hostile/graphql-documents.test.ts',
  'test/hostile/hostile-account-discovery.test.ts',
];

/** The server's Vitest project: `isolate` false shares a worker process (and its imports) between files. */
export function serverProject(name: string, files: { include: string[]; exclude: string[] }, isolate: boolean) {
  return defineProject({
    // graphql ships CJS and ESM builds; Pothos and Mercurius load the CJS one, so tests must too (one realm).
    resolve: { alias: { graphql: require.resolve('graphql') } },
    test: {
      name,
      include: files.include,
      exclude: [...configDefaults.exclude, ...files.exclude],
      environment: 'node',
      testTimeout: 60_000,
      hookTimeout: 120_000,
      pool: 'forks',
      maxWorkers: 2,
      isolate,
      // Own group: its worker limit differs from the jsdom projects'.
      sequence: { groupOrder: 1 },
    },
  });
}

// Each worker process imports the app once for all its files: with isolation, every file's fresh process spent seconds
// importing the server (import 236 s of the run, the server's files 21 min instead of 13). Tests keep no state between
// files: each starts its own app, database and folders.
export default serverProject(
  'server',
  { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: MEASURES_OWN_CPU },
  false,
);
