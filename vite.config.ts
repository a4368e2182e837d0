import { defineConfig } from 'vitest/config';

// Shared Vitest settings: one project per package that has Node-side or jsdom tests.
// The player's pure modules (*.unit.test.ts) run here; its browser tests run in Debian Chromium through
// web-test-runner.
export default defineConfig({
  test: {
    projects: ['packages/shared', 'packages/server', 'packages/console', 'packages/player-element'],
  },
});
