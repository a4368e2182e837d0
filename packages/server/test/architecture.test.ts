/**
 * The server's import rules (.dependency-cruiser.cjs, checked by dependency-cruiser): no import circle, no floor
 * importing a floor above it, pg-boss imported by the queue module (jobs/queue.ts) alone, and no module but the
 * migrator importing a migration. .dependency-cruiser-known-violations.json lists accepted exceptions (none today; add
 * one only with a reason in docs/decisions.md); anything else fails here. Two rules read source text: resolvers query
 * no database, and every HTTP refusal goes through http/refuse.ts (its one code → status table).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The package's exports name neither package.json nor its bin: look for it where npm installs it (here or hoisted).
const cli = [serverDir, path.resolve(serverDir, '../..')]
  .map((d) => path.join(d, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'))
  .find((f) => existsSync(f))!;

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
  cycle?: Array<{ name: string }>;
}

async function violations(cwd = serverDir): Promise<Violation[]> {
  const args = [
    cli,
    'src',
    '-c',
    path.join(serverDir, '.dependency-cruiser.cjs'),
    '--output-type',
    'json',
    '--ignore-known',
    path.join(serverDir, '.dependency-cruiser-known-violations.json'),
  ];
  // depcruise exits non-zero when it finds violations; the JSON on stdout is what we read either way.
  const out = await run(process.execPath, args, { cwd, maxBuffer: 64 * 1024 * 1024 }).catch(
    (err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }),
  );
  const result = JSON.parse(out.stdout) as { summary: { violations: Violation[] } };
  return result.summary.violations.filter((v) => v.rule.severity === 'error');
}

/**
 * Modules that write an error status or an error body themselves instead of calling http/refuse.ts: a 4xx/5xx
 * literal given to `.code()`, `.status()`, `writeHead()` or `statusCode =`, a status from a variable given to
 * `.code()`, or a `.send()` of an object with an `error`/`errors` key or `ok: false`.
 */
const handMade = [
  /\.(code|status)\(\s*[45]\d\d\b/,
  /\bwriteHead\(\s*[45]\d\d\b/,
  /\.statusCode\s*=\s*[45]\d\d\b/,
  /\.code\(\s*[A-Za-z_$]/,
  /\.send\(\s*\{[^}]*\b(errors?\s*:|ok:\s*false)/,
];
/** Where a status is written by hand on purpose. */
const REFUSAL_EXCEPTIONS: Record<string, string> = {
  'http/refuse.ts': 'the one place that answers a refusal',
  'http/html-page.ts':
    "the server's own HTML pages (the local checkout), which a person's browser shows: a declined card is a 402 page, not an API refusal",
  'http/billing.ts': 'the local checkout, the routes of those HTML pages',
  'http/admin-socket.ts':
    "the command line's channel over a Unix socket in the data directory, with its own { ok, message } replies",
};

function handMadeRefusals(src: string): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !(f in REFUSAL_EXCEPTIONS))
    .flatMap((f) =>
      readFileSync(path.join(src, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => (handMade.some((re) => re.test(line)) ? [`${f}:${i + 1}`] : [])),
    );
}

describe('server import rules', () => {
  it('no import circle and no upward import, beyond the known ones listed', async () => {
    const found = await violations();
    expect(
      found.map(
        (v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`,
      ),
    ).toEqual([]);
  }, 120_000);

  it('resolvers query no database: no module under src/graphql/ builds a Kysely query (they call services)', () => {
    const query = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|from 'kysely'|\bsql`/;
    const offenders = readdirSync(path.join(serverDir, 'src/graphql'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => query.test(readFileSync(path.join(serverDir, 'src/graphql', f), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('every HTTP refusal goes through http/refuse.ts: no module writes an error status or error body itself', () => {
    expect(handMadeRefusals(path.join(serverDir, 'src'))).toEqual([]);
  });

  it("the refusal rule bites: the probe tree's route answers its own 404, its own status and its own error bodies", () => {
    expect(handMadeRefusals(path.join(serverDir, 'test/fixtures/architecture-probe/src'))).toEqual([
      'http/probe-route.ts:4',
      'http/probe-route.ts:5',
      'http/probe-route.ts:6',
      'http/probe-route.ts:7',
    ]);
  });

  it('the rules bite: a probe tree whose core imports graphql (which imports it back), and whose service calls pg-boss and imports a migration, breaks four of them', async () => {
    const found = await violations(path.join(serverDir, 'test/fixtures/architecture-probe'));
    expect(
      found.map((v) => `${v.rule.name}: ${v.from} -> ${v.to.replace(/^.*node_modules\//, 'node_modules/')}`).sort(),
    ).toEqual([
      'core-imports-upward: src/core/ids.ts -> src/graphql/builder.ts',
      'no-circular: src/core/ids.ts -> src/graphql/builder.ts',
      'no-migration-imports: src/services/probe-queue.ts -> src/db/migrations/0001-probe.ts',
      expect.stringMatching(/^pg-boss-only-in-the-queue: src\/services\/probe-queue\.ts -> node_modules\/pg-boss\//),
    ]);
  }, 120_000);
});
