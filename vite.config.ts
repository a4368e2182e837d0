import { defineConfig } from 'vitest/config';

// Shared Vitest settings: one project per package that has Node-side or jsdom tests.
// The player's pure modules (*.unit.test.ts) run here; its browser tests run in Debian Chromium through
// web-test-runner.
export default defineConfig({
  test: {
    // Two files at a time (the default leaves a core free on a 2-core machine, and the jsdom files mostly wait on their
    // imports and environment).
    maxWorkers: 2,
    projects: [
      'packages/shared',
      'packages/server',
      'packages/server/vitest.isolated.config.ts',
      'packages/console',
      'packages/console/vitest.isolated.config.ts',
      'packages/player-element',
    ],
  },
});
