/**
 * npm run test:e2e (after the build): Playwright's webServer starts the real server (built console, temp DATA_DIR,
 * free port) and stops it after the run; the journeys run in Debian's Chromium. server-log-reporter.ts removes the
 * temp folder after a green run and keeps the server log (printing its end) after a failed one.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const consoleDir = path.resolve(here, '..');
const repo = path.resolve(consoleDir, '../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

// Playwright loads this file again in each worker process; the workers inherit these variables from the runner, so
// the port and the data folder are chosen once per run.
process.env.E2E_PORT ??= String(await freePort());
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'roomwalk-e2e-'));
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;
process.env.E2E_BASE_URL = baseURL;
const serverLog = path.join(process.env.E2E_DATA_DIR, 'server.log');

/**
 * The journeys that move the server's calendar clock (`moveServerClock(` in the spec), read from the specs at each run,
 * so a new one is found without a list to keep: audience-links and personal-data today.
 */
const CLOCK_JOURNEYS = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.spec.ts') && fs.readFileSync(path.join(here, f), 'utf8').includes('moveServerClock('))
  .sort();

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two journeys at a time (each file's tests in order in one worker): one at a time left a core idle a third of the
  // run, a browser waiting on the server or a finger paced by the clock (docs/results.md, "Two journeys at a time").
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list'], ['./server-log-reporter.ts']],
  webServer: {
    // The server's output goes to the log file in the temp folder (kept when the run fails).
    command: `${JSON.stringify(process.execPath)} --import tsx packages/server/src/index.ts > ${JSON.stringify(serverLog)} 2>&1`,
    cwd: repo,
    url: `${baseURL}/healthz`,
    timeout: 90_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: {
      NODE_ENV: 'development',
      PORT: process.env.E2E_PORT,
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_DISABLED: 'true',
      // S3's smallest part (the default is 8 MiB): an 11 s test clip's 1080p mezzanine (about 7 MB) then has two parts,
      // so a part goes up before the conversion ends; the clip format the device now makes (about 1 MB) has one.
      UPLOAD_PART_BYTES: String(5 * 1024 * 1024),
      // E2E_CONSOLE_DIST: a private build, so concurrent runs do not rewrite each other's dist/.
      CONSOLE_DIST: process.env.E2E_CONSOLE_DIST ?? path.join(consoleDir, 'dist'),
    },
  },
  // Two devices ("Done"): every journey on desktop; the account and tours journeys again on a phone.
  // One server serves both; each journey signs up its own users (stamped e-mails), so the projects do not collide.
  // The journeys that move the server's calendar clock (moveServerClock: days ahead, so a link or a deletion falls due)
  // would end the sessions of any journey running beside them: they run last, alone, after the two projects.
  projects: [
    { name: 'desktop', testIgnore: CLOCK_JOURNEYS, use: { viewport: { width: 1280, height: 800 } } },
    {
      name: 'phone',
      testMatch: ['journey.spec.ts', 'tours-journey.spec.ts', 'phone-uploads.spec.ts'],
      use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
    },
    {
      name: 'desktop-clock',
      testMatch: CLOCK_JOURNEYS,
      dependencies: ['desktop', 'phone'],
      workers: 1,
      use: { viewport: { width: 1280, height: 800 } },
    },
  ],
  outputDir: '../test-artifacts/playwright-output',
  use: {
    baseURL,
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
