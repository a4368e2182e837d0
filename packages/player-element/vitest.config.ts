import { defineProject } from 'vitest/config';

// Pure modules of the player (no DOM, no worker): `*.unit.test.ts` run under Vitest in Node with the repository's
// other unit tests. Everything else (`*.test.ts`) runs in Debian Chromium through web-test-runner.
export default defineProject({
  test: { name: 'player-element', include: ['src/**/*.unit.test.ts'], environment: 'node' },
});
