// Browser tests in the three engines visitors arrive with, each from Debian's packages (never a downloaded browser):
// every file in Chromium, the visitors' files (VISITOR_FILES) in Firefox ESR and WebKitGTK too (test/engines.mjs;
// TEST_ENGINES narrows the engines, test/README.md says which tests run where and why). The tours come from the real
// server (packages/server/test/fixtures/player-tours.ts: buildApp() on PGlite, tours made by the real pipeline from
// generated videos, cached between runs) on another origin (127.0.0.1) than the test page (localhost). A stub API
// (test/stub-server.mjs) stays only for faults the real server cannot be made to show; see test/README.md.
import { resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { build } from 'esbuild';
import { enginesFromEnv, wtrLauncher } from './test/engines.mjs';
import { generateTestFixtures } from './test/fixtures.mjs';
import { startStub, TOURS } from './test/stub-server.mjs';

generateTestFixtures();
const stub = await startStub();
const server = await startRealServer();
// The real server on the test page's own origin (/__api/…): signed-in work (the editor, agent mode with a token) is
// same-origin in the product (the console is served by the server; cross-origin, the server refuses tokens: cors.ts),
// so those tests reach the server through this pass-through. GraphQL over WebSocket too.
const sameOrigin = createProxyMiddleware({
  target: server.url,
  pathFilter: '/__api',
  pathRewrite: { '^/__api': '' },
  ws: true,
  changeOrigin: true,
});

/** Spawns the real server with its test tours and waits for its ready line ({ url, tours, token, ownerId }). */
async function startRealServer() {
  const repo = resolve('../..');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', resolve(repo, 'packages/server/test/fixtures/player-tours.ts')],
    {
      cwd: repo,
      env: { ...process.env, NODE_ENV: 'test' },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise((resolveReady, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`the real server for the player tests exited with ${code} before it was ready`)),
    );
    lines.once('line', (line) => resolveReady(JSON.parse(line)));
  });
  // Later lines answer commands (one at a time): see player-tours.ts.
  let queue = Promise.resolve();
  const command = (cmd) => {
    const sent = queue.then(
      () =>
        new Promise((resolveAck) => {
          lines.once('line', (line) => resolveAck(JSON.parse(line)));
          child.stdin.write(`${JSON.stringify(cmd)}\n`);
        }),
    );
    queue = sent.catch(() => undefined);
    return sent;
  };
  return {
    ...ready,
    command,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.stdin.end();
      }),
  };
}
const consoleBySession = new Map();
const OBSERVING_COMMANDS = [
  'console-capture',
  'console-messages',
  'requests-start',
  'requests',
  'requests-detail',
  'cdp-network',
];
const requestsBySession = new Map();

const ALL_FILES = ['src/**/*.test.ts', '!src/**/*.unit.test.ts', 'test/live-*.test.ts'];
// What a visitor sees: load and errors, first frame, exact frames, scrub (keys, joystick, wheel, touch), drawer and
// markers, deep links, unbranded and branding, host events, storage blocked, lazy loading, the <video> fallback, the
// script-tag bundle. These run in every engine.
const VISITOR_FILES = [
  'src/tour-player/tour-player.test.ts',
  'src/tour-player/interaction.test.ts',
  'src/tour-player/markers.test.ts',
  'src/tour-player/embed-features.test.ts',
  'src/tour-player/host-and-memory.test.ts',
  // Every frame format and the <video> fallback: what each engine's own decoder, copies and <video> do differently.
  'src/workers/frame-formats.test.ts',
  'src/frames/video-fallback.test.ts',
  // The paint worker's bitmaps at the frame's size and the canvas's, in each engine's own conversion path.
  'src/workers/paint-worker.test.ts',
  // Full-range and limited-range clips painted in their known colours by each engine's decoder, paint and <video>.
  'src/workers/colour-range.test.ts',
  // Issue 44: what a jump's and a rest's exact frame waits on (the order of paint and decode requests, no timing).
  'src/paint/paint-bridge.test.ts',
  'src/decode/decode-scheduler.test.ts',
];
// `--files` (one file while working on it) runs that file in Chromium, or in each engine TEST_ENGINES names.
const cliFiles = process.argv.some((a) => a === '--files' || a.startsWith('--files='));
const engines = enginesFromEnv(process.env.TEST_ENGINES || (cliFiles ? 'chromium' : undefined));
const otherEngines = engines.filter((e) => e !== 'chromium');

export default {
  rootDir: resolve('../..'),
  files: engines.includes('chromium') ? ALL_FILES : VISITOR_FILES,
  browsers: (cliFiles || !engines.includes('chromium') ? engines : ['chromium']).map(wtrLauncher),
  groups:
    engines.includes('chromium') && otherEngines.length > 0 && !cliFiles
      ? [{ name: 'firefox-webkit', files: VISITOR_FILES, browsers: otherEngines.map(wtrLauncher) }]
      : [],
  nodeResolve: true,
  concurrency: 1,
  // One engine at a time: the tests time first frames and decoding on a 2-core machine.
  concurrentBrowsers: 1,
  hostname: 'localhost',
  testsFinishTimeout: 300_000,
  // A test file's modules are compiled on first request; on a busy 2-core machine that outlasts the default 20 s.
  testsStartTimeout: 120_000,
  testFramework: { config: { timeout: 30_000 } },
  browserStartTimeout: 60_000,
  middleware: [
    (ctx, next) => {
      if (!ctx.path.startsWith('/__api/')) return next();
      ctx.respond = false;
      return new Promise((resolveProxy, reject) =>
        sameOrigin(ctx.req, ctx.res, (err) => (err ? reject(err) : resolveProxy())),
      );
    },
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
        if (ctx.path === '/__host-frame.html') {
          // A host page (tests load it from http://127.0.0.1:<port>, another origin than the test page on localhost):
          // posts one host message to the parent.
          const type = ctx.query.type;
          const frameIndex = Number(ctx.query.frameIndex);
          return {
            body: `<!doctype html><script>parent.postMessage(${JSON.stringify({ type, frameIndex })}, '*');parent.postMessage({type:'host-frame-done'}, '*');</script>`,
            type: 'html',
          };
        }
        if (ctx.path === '/__server.js') {
          return {
            body: `export const SERVER = ${JSON.stringify(server.url)}; export const SERVER_TOURS = ${JSON.stringify(server.tours)}; export const OWNER_TOKEN = ${JSON.stringify(server.token)}; export const BRANDED_TOKEN = ${JSON.stringify(server.brandedToken)};`,
            type: 'js',
          };
        }
        if (ctx.path === '/__stub.js') {
          return {
            body: `export const STUB = ${JSON.stringify(stub.origin)}; export const TOURS = ${JSON.stringify(TOURS)};`,
            type: 'js',
          };
        }
      },
      async executeCommand({ command, session, payload }) {
        // WebKitGTK is driven over plain WebDriver, which shows neither the page's requests nor its console: these
        // commands answer false there, and the checks that need them run in Chromium and Firefox (test/README.md).
        // (false, not null: a plugin's null means "not mine" to web-test-runner.)
        if (OBSERVING_COMMANDS.includes(command) && session.browser.type !== 'puppeteer') return false;
        // The viewport in every engine (test/helpers.ts setViewport): @web/test-runner-commands' own set-viewport runs
        // first and refuses WebDriver, so WebKit's launcher is reached through this name; it sizes its window.
        if (command === 'viewport') {
          if (session.browser.type === 'webdriver') return session.browser.setViewport(session.id, payload);
          await session.browser.getPage(session.id).setViewport(payload);
          return true;
        }
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
        // Agora on the real server (payload { appId, certificate } or null), as AGORA_APP_ID / AGORA_APP_CERTIFICATE.
        if (command === 'server-agora') return server.command({ agora: payload ?? null });
        // The URLs the page and its workers requested since 'requests-start' (which clips a player fetched from the
        // real server, seen by the browser rather than a stub's log).
        if (command === 'requests-start') {
          const page = session.browser.getPage(session.id);
          const list = [];
          const previous = requestsBySession.get(session.id);
          if (previous) page.off('request', previous.listener);
          const listener = (r) => list.push(r);
          page.on('request', listener);
          requestsBySession.set(session.id, { list, listener });
          return true;
        }
        if (command === 'requests') return (requestsBySession.get(session.id)?.list ?? []).map((r) => r.url());
        // The same with what was sent and what the server answered (status null while unanswered).
        if (command === 'requests-detail') {
          return (requestsBySession.get(session.id)?.list ?? []).map((r) => ({
            url: r.url(),
            method: r.method(),
            contentType: r.headers()['content-type'] ?? null,
            body: r.postData() ?? null,
            status: r.response()?.status() ?? null,
          }));
        }
        if (command === 'cdp-network') {
          const page = session.browser.getPage(session.id);
          const cdp = await page.createCDPSession();
          await cdp.send('Network.enable');
          await cdp.send('Network.emulateNetworkConditions', payload);
          return true;
        }
        return undefined;
      },
      serverStart({ server: http }) {
        http.on('upgrade', (req, socket, head) => {
          if (req.url?.startsWith('/__api/')) sameOrigin.upgrade(req, socket, head);
        });
      },
      async serverStop() {
        await Promise.all([stub.stop(), server.stop()]);
      },
    },
  ],
};
