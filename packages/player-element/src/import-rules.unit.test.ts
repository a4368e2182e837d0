import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/** The player's import rule (.dependency-cruiser.cjs): no import circle in src/, type-only imports included. */
const run = promisify(execFile);
const playerDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The package's exports name neither package.json nor its bin: look for it where npm installs it (here or hoisted).
const cli = [playerDir, path.resolve(playerDir, '../..')]
  .map((d) => path.join(d, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'))
  .find((f) => existsSync(f))!;

async function circles(cwd: string): Promise<string[]> {
  const args = [cli, 'src', '-c', path.join(playerDir, '.dependency-cruiser.cjs'), '--output-type', 'json'];
  // depcruise exits non-zero when it finds violations; the JSON on stdout is what we read either way.
  const out = await run(process.execPath, args, { cwd, maxBuffer: 64 * 1024 * 1024 }).catch(
    (err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }),
  );
  const result = JSON.parse(out.stdout) as {
    summary: { violations: { from: string; to: string; rule: { severity: string } }[] };
  };
  return result.summary.violations.filter((v) => v.rule.severity === 'error').map((v) => `${v.from} -> ${v.to}`);
}

describe('player import rules', () => {
  it('no import circle in src/', async () => {
    expect(await circles(playerDir)).toEqual([]);
  }, 120_000);

  it('the rule bites: a probe whose drawer and editor import each other', async () => {
    expect((await circles(path.join(playerDir, 'test/import-probe'))).sort()).toEqual([
      'src/drawer.ts -> src/editor.ts',
    ]);
  }, 120_000);
});
