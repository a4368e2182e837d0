/**
 * The server's import rules (.dependency-cruiser.cjs, checked by dependency-cruiser): no import circle, and no floor
 * importing a floor above it. The violations that existed when the rule came in are listed in
 * .dependency-cruiser-known-violations.json (to be removed, never added to); anything else fails here.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The package's exports name neither package.json nor its bin: look for it where npm installs it (here or hoisted).
const cli = [serverDir, path.resolve(serverDir, '../..')].map((d) => path.join(d, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs')).find((f) => existsSync(f))!;

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
  cycle?: Array<{ name: string }>;
}

async function violations(ignoreKnown: boolean): Promise<Violation[]> {
  const args = [cli, 'src', '-c', '.dependency-cruiser.cjs', '--output-type', 'json', ...(ignoreKnown ? ['--ignore-known', '.dependency-cruiser-known-violations.json'] : [])];
  // depcruise exits non-zero when it finds violations; the JSON on stdout is what we read either way.
  const out = await run(process.execPath, args, { cwd: serverDir, maxBuffer: 64 * 1024 * 1024 }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  const result = JSON.parse(out.stdout) as { summary: { violations: Violation[] } };
  return result.summary.violations.filter((v) => v.rule.severity === 'error');
}

describe('server import rules', () => {
  it('no import circle and no upward import, beyond the known ones listed to be removed', async () => {
    const found = await violations(true);
    expect(found.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`)).toEqual([]);
  }, 120_000);

  it('the rules bite: without the known list they report exactly those', async () => {
    const known = (await import('../.dependency-cruiser-known-violations.json', { with: { type: 'json' } })).default as Violation[];
    const found = await violations(false);
    expect(found.map((v) => `${v.from} -> ${v.to}`).sort()).toEqual(known.map((v) => `${v.from} -> ${v.to}`).sort());
    expect(known.length).toBeGreaterThan(0);
  }, 120_000);
});
