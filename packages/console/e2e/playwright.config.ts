import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: '../test-artifacts/playwright-output',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    acceptDownloads: true,
    viewport: { width: 1280, height: 800 },
    // Shoelace skips its transitions, so axe never measures half-faded dialogs.
    reducedMotion: 'reduce',
    launchOptions: {
      // Debian's Chromium; Playwright never downloads a browser here.
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
      headless: true,
    },
  },
});
