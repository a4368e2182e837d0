import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Integration tests start real servers and databases; keep files apart but not too many at once on 2 cores.
    pool: 'forks',
    maxWorkers: 2,
  },
});
