#!/usr/bin/env node
// The README's start command: builds the console and the player once if their builds are missing or older than
// their sources, then runs the whole product (API and worker) on the embedded defaults at one local port.
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

if (fs.existsSync('.env') && typeof process.loadEnvFile === 'function') process.loadEnvFile('.env');

function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return newest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

function ensureBuilt(pkg, marker) {
  const pkgDir = path.join('packages', pkg);
  const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  if (!manifest.scripts?.build) return;
  const built = path.join(pkgDir, 'dist', marker);
  const stale =
    !fs.existsSync(built) ||
    fs.statSync(built).mtimeMs < Math.max(newestMtime(path.join(pkgDir, 'src')), newestMtime('packages/shared/src'));
  if (!stale) return;
  console.log(`Building ${pkg}...`);
  const r = spawnSync('npm', ['run', 'build', '-w', pkgDir], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`Building ${pkg} failed; see the output above.`);
    process.exit(r.status ?? 1);
  }
}

ensureBuilt('player-element', 'tour-player.js');
ensureBuilt('console', 'index.html');

const server = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/index.ts'], {
  stdio: 'inherit',
  env: process.env,
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
