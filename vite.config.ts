import { defineConfig } from 'vitest/config';

// Shared Vitest settings: one project per package that has Node-side or jsdom tests.
// Browser tests of the player run in Debian Chromium through web-test-runner (packages/player-element).
export default defineConfig({
  test: {
    projects: ['packages/shared', 'packages/server', 'packages/console'],
  },
});
