import { createRequire } from 'node:module';
import { defineProject } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineProject({
  // graphql ships CJS and ESM builds; Pothos and Mercurius load the CJS one, so tests must too (one realm).
  resolve: { alias: { graphql: require.resolve('graphql') } },
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // Own group: its worker limit differs from the jsdom projects'.
    sequence: { groupOrder: 1 },
  },
});
