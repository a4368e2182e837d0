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
});
