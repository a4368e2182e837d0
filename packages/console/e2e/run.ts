/**
 * npm run test:e2e: starts the real server (built console, temp DATA_DIR, free port), runs the Playwright journey in
 * Debian's Chromium, stops the server and exits with the journey's code.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

async function waitForHealth(url: string, server: ChildProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become healthy in time');
}

async function main(): Promise<number> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomwalk-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const serverLog = fs.openSync(path.join(dataDir, 'server.log'), 'a');
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'packages/server/src/index.ts')], {
    cwd: repo,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_DISABLED: 'true',
      // E2E_CONSOLE_DIST: a private build, so concurrent runs do not rewrite each other's dist/.
      CONSOLE_DIST: process.env.E2E_CONSOLE_DIST ?? path.join(consoleDir, 'dist'),
    },
    stdio: ['ignore', serverLog, serverLog],
  });
  let code = 1;
  try {
    await waitForHealth(baseUrl, server);
    console.log(`e2e: server at ${baseUrl} (data ${dataDir})`);
    const cli = path.join(repo, 'node_modules/@playwright/test/cli.js');
    const runner = spawn(process.execPath, [cli, 'test', '-c', path.join(here, 'playwright.config.ts'), ...process.argv.slice(2)], {
      cwd: consoleDir,
      env: { ...process.env, E2E_BASE_URL: baseUrl },
      stdio: 'inherit',
    });
    code = await new Promise<number>((resolve) => runner.on('exit', (c) => resolve(c ?? 1)));
  } catch (err) {
    console.error('e2e:', err instanceof Error ? err.message : err);
    console.error(fs.readFileSync(path.join(dataDir, 'server.log'), 'utf8').slice(-4000));
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
    if (code === 0) fs.rmSync(dataDir, { recursive: true, force: true });
    else console.error(`e2e: server log kept at ${path.join(dataDir, 'server.log')}`);
  }
  return code;
}

process.exit(await main());
