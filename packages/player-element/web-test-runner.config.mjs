// Browser tests in Debian Chromium (never a downloaded browser), headless. The tours come from the real server
// (packages/server/test/fixtures/player-tours.ts: buildApp() on PGlite, tours made by the real pipeline from generated
// videos, cached between runs) on another origin (127.0.0.1) than the test page (localhost). A stub API
// (test/stub-server.mjs) stays only for faults the real server cannot be made to show; see test/README.md.
import { resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { build } from 'esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { generateTestFixtures } from './test/fixtures.mjs';
import { startStub, TOURS } from './test/stub-server.mjs';

generateTestFixtures();
const stub = await startStub();
const server = await startRealServer();
// The real server on the test page's own origin (/__api/…): signed-in work (the editor, agent mode with a token) is
// same-origin in the product (the console is served by the server; cross-origin, the server refuses tokens: cors.ts),
// so those tests reach the server through this pass-through. GraphQL over WebSocket too.
const sameOrigin = createProxyMiddleware({ target: server.url, pathFilter: '/__api', pathRewrite: { '^/__api': '' }, ws: true, changeOrigin: true });

/** Spawns the real server with its test tours and waits for its ready line ({ url, tours, token, ownerId }). */
async function startRealServer() {
  const repo = resolve('../..');
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(repo, 'packages/server/test/fixtures/player-tours.ts')], {
    cwd: repo,
    env: { ...process.env, NODE_ENV: 'test' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise((resolveReady, reject) => {
    child.once('exit', (code) => reject(new Error(`the real server for the player tests exited with ${code} before it was ready`)));
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
const requestsBySession = new Map();

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--js-flags=--expose-gc', '--autoplay-policy=no-user-gesture-required'];

export default {
  rootDir: resolve('../..'),
  files: ['src/**/*.test.ts', '!src/**/*.unit.test.ts', 'test/live-*.test.ts'],
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
  middleware: [
    (ctx, next) => {
      if (!ctx.path.startsWith('/__api/')) return next();
      ctx.respond = false;
      return new Promise((resolveProxy, reject) => sameOrigin(ctx.req, ctx.res, (err) => (err ? reject(err) : resolveProxy())));
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
          return { body: `<!doctype html><script>parent.postMessage(${JSON.stringify({ type, frameIndex })}, '*');parent.postMessage({type:'host-frame-done'}, '*');</script>`, type: 'html' };
        }
        if (ctx.path === '/__server.js') {
          return {
            body: `export const SERVER = ${JSON.stringify(server.url)}; export const SERVER_TOURS = ${JSON.stringify(server.tours)}; export const OWNER_TOKEN = ${JSON.stringify(server.token)}; export const BRANDED_TOKEN = ${JSON.stringify(server.brandedToken)};`,
            type: 'js',
          };
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
