/**
 * `npm run bench:upload`: the e2e setup (real server, built console, Debian's Chromium) running upload.bench.ts only,
 * on the desktop project, with room for a 60 s 4K60 clip on a busy 2-core machine.
 */
import { defineConfig } from '@playwright/test';
import e2e from './playwright.config.js';

export default defineConfig({
  ...e2e,
  testMatch: 'upload.bench.ts',
  timeout: 3_600_000,
  projects: [{ name: 'desktop', use: { viewport: { width: 1280, height: 800 } } }],
  // The server's default part size (8 MiB), as in production, not the journeys' 5 MiB.
  webServer: (() => {
    const server = e2e.webServer as NonNullable<Extract<typeof e2e.webServer, { command: string }>>;
    return { ...server, env: { ...server.env, UPLOAD_PART_BYTES: String(8 * 1024 * 1024) } };
  })(),
});
