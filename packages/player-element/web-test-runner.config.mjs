// Browser tests in Debian Chromium (never a downloaded browser), headless, on ffmpeg-built tours
// served by a stub API on another origin (127.0.0.1) than the test page (localhost).
import { resolve } from 'node:path';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { build } from 'esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { generateTestFixtures } from './test/fixtures.mjs';
import { startStub, TOURS } from './test/stub-server.mjs';

generateTestFixtures();
const stub = await startStub();
const consoleBySession = new Map();

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--js-flags=--expose-gc', '--autoplay-policy=no-user-gesture-required'];

export default {
  rootDir: resolve('../..'),
  files: ['src/**/*.test.ts', 'test/live-*.test.ts'],
  nodeResolve: true,
  concurrency: 1,
  hostname: 'localhost',
  testsFinishTimeout: 300_000,
  testFramework: { config: { timeout: 30_000 } },
  browserStartTimeout: 60_000,
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS },
    }),
  ],
  plugins: [
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: resolve('tsconfig.json') }),
    {
      name: 'roomwalk-stub',
      async serve(ctx) {
        if (ctx.path === '/__react-entry.js') {
          const out = await build({
            entryPoints: [resolve('test/react-entry.tsx')],
            bundle: true,
            format: 'esm',
            write: false,
            jsx: 'automatic',
            define: { 'process.env.NODE_ENV': '"development"' },
            tsconfig: resolve('tsconfig.json'),
          });
          return { body: out.outputFiles[0].text, type: 'js' };
        }
        if (ctx.path === '/__stub.js') {
          return { body: `export const STUB = ${JSON.stringify(stub.origin)}; export const TOURS = ${JSON.stringify(TOURS)};`, type: 'js' };
        }
      },
      async executeCommand({ command, session, payload }) {
        // Console messages of the page and its workers (to catch "garbage collected without being closed").
        if (command === 'console-capture') {
          const page = session.browser.getPage(session.id);
          const list = [];
          consoleBySession.set(session.id, list);
          page.on('console', (m) => list.push(`${m.type()}: ${m.text()}`));
          page.on('workercreated', (w) => w.on('console', (m) => list.push(`worker ${m.type()}: ${m.text()}`)));
          return true;
        }
        if (command === 'console-messages') return consoleBySession.get(session.id) ?? [];
        if (command === 'cdp-network') {
          const page = session.browser.getPage(session.id);
          const cdp = await page.createCDPSession();
          await cdp.send('Network.enable');
          await cdp.send('Network.emulateNetworkConditions', payload);
          return true;
        }
        return undefined;
      },
      async serverStop() {
        await stub.stop();
      },
    },
  ],
};
