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
  // Two devices (issue 16, "Done"): every journey on desktop; the account and tours journeys again on a phone.
  // One server serves both; each journey signs up its own users (stamped e-mails), so the projects do not collide.
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
    {
      name: 'phone',
      testMatch: ['journey.spec.ts', 'tours-journey.spec.ts'],
      use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
    },
  ],
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
