/**
 * Claims of docs/code-map.md that a test can check and the architecture test (import rules) does not: every table a
 * migration creates has its row type in the one `Database` (db/types.ts, per-domain parts in db/tables/), only the
 * job modules talk to the queue and every job module is registered in jobs/workers.ts, and no console page queries
 * or mutates itself (its `use-<screen>.ts` hook does). Each check reads source text, and
 * the last test runs them on a small broken tree to show they bite.
 */
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const packages = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const serverSrc = path.join(packages, 'server/src');
const consoleScreens = path.join(packages, 'console/src/screens');

const read = (f: string) => readFileSync(f, 'utf8');
const tsFiles = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => f.split(path.sep).join('/'));

/** Tables created by the migrations (their `up`, in SQL; the `down`s only drop). */
function migrationTables(src: string): string[] {
  const dir = path.join(src, 'db/migrations');
  const names = readdirSync(dir)
    .filter((f) => /^\d{4}-.*\.ts$/.test(f))
    .flatMap((f) =>
      [...read(path.join(dir, f)).matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"?([a-z_]+)"?/g)].map((m) => m[1]!),
    );
  return [...new Set(names)].sort();
}

/** The keys of `interface <name> [extends …] { … }` or `type <name> = { … }` in `text`, with the names it extends. */
function interfaceKeys(text: string, name: string): { keys: string[]; extended: string[] } | null {
  const m = new RegExp(`(?:interface|type) ${name}(?:\\s+extends ([^{]+))?(?:\\s*=)?\\s*\\{([^}]*)\\}`).exec(text);
  if (!m) return null;
  return {
    keys: [...m[2]!.matchAll(/(?:^|[{;\n])\s*([a-z_]+): /g)].map((k) => k[1]!),
    extended: (m[1] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  };
}

/** Every table of the one `Database` type: db/types.ts and the per-domain interfaces it extends (db/tables/*.ts). */
function databaseTables(src: string): string[] {
  const root = interfaceKeys(read(path.join(src, 'db/types.ts')), 'Database');
  if (!root) return [];
  const tablesDir = path.join(src, 'db/tables');
  const domainTexts = readdirSync(tablesDir).map((f) => read(path.join(tablesDir, f)));
  const domain = root.extended.flatMap((name) => domainTexts.flatMap((t) => interfaceKeys(t, name)?.keys ?? []));
  return [...new Set([...root.keys, ...domain])].sort();
}

/** Modules that declare table types outside db/ (`declare module` over the Database, `withTables` casts). */
function tableTypesElsewhere(src: string): string[] {
  return tsFiles(src).filter(
    (f) =>
      !f.startsWith('db/types.ts') &&
      /withTables|declare module ['"][^'"]*\/types(\.js)?['"]/.test(read(path.join(src, f))),
  );
}

/** Tests that cast a table's name to reach it (`selectFrom('reels' as never)`): every table is in the Database type. */
function tableCastsInTests(testDir: string): string[] {
  const cast = /\.(selectFrom|insertInto|updateTable|deleteFrom)\(\s*'[a-z_]+' as /;
  return (
    readdirSync(testDir, { recursive: true, encoding: 'utf8' })
      .map((f) => f.split(path.sep).join('/'))
      // This file writes such a cast into its probe tree.
      .filter((f) => f.endsWith('.ts') && f !== 'code-map.test.ts')
      .filter((f) => cast.test(read(path.join(testDir, f))))
  );
}

/**
 * Calls of the queue's raw methods outside the queue module and the workers list (everything else enqueues through a
 * job module).
 */
function rawQueueCalls(src: string): string[] {
  const raw = /\bqueue\.(send|sendInTransaction|schedule|work|createQueue)\(|\.boss\b/;
  return tsFiles(src).filter(
    (f) => f !== 'jobs/queue.ts' && f !== 'jobs/workers.ts' && raw.test(read(path.join(src, f))),
  );
}

/** Job definitions (`export const x = defineJob…`) that jobs/workers.ts never names. */
function unregisteredJobs(src: string): string[] {
  const workers = read(path.join(src, 'jobs/workers.ts'));
  return tsFiles(path.join(src, 'jobs'))
    .flatMap((f) =>
      [...read(path.join(src, 'jobs', f)).matchAll(/export const (\w+) = defineJob\b/g)].map((m) => m[1]!),
    )
    .filter((job) => !new RegExp(`\\b${job}\\b`).test(workers));
}

/**
 * Console pages that query or mutate themselves (import urql): every routed screen's `<name>-page.tsx` leaves its
 * queries and mutations to its `use<Screen>()` hook (`use-<name>.ts` beside it), whether or not the hook exists yet.
 */
function pagesThatQuery(screens: string): string[] {
  return readdirSync(screens, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(path.join(screens, d.name))
        .filter((f) => f.endsWith('-page.tsx'))
        .map((f) => `${d.name}/${f}`),
    )
    .filter((page) => /from 'urql'/.test(read(path.join(screens, page))));
}

describe('docs/code-map.md, the claims a test can check', () => {
  it('every table a migration creates is in the one Database type (db/types.ts with db/tables/<domain>.ts), no module types tables elsewhere, and no test casts a table name', () => {
    const created = migrationTables(serverSrc);
    expect(created.length).toBeGreaterThan(30);
    expect(created.filter((t) => !databaseTables(serverSrc).includes(t))).toEqual([]);
    expect(tableTypesElsewhere(serverSrc)).toEqual([]);
    expect(tableCastsInTests(path.join(packages, 'server/test'))).toEqual([]);
  });

  it('only the queue module calls the queue (services enqueue through job modules), and jobs/workers.ts registers every job module', () => {
    expect(rawQueueCalls(serverSrc)).toEqual([]);
    expect(unregisteredJobs(serverSrc)).toEqual([]);
  });

  it('no console page queries or mutates itself: each leaves that to its use<Screen> hook', () => {
    expect(pagesThatQuery(consoleScreens)).toEqual([]);
  });

  describe('the checks bite', () => {
    const probe = mkdtempSync(path.join(tmpdir(), 'code-map-probe-'));
    afterAll(() => rmSync(probe, { recursive: true, force: true }));
    const write = (rel: string, text: string) => {
      mkdirSync(path.dirname(path.join(probe, rel)), { recursive: true });
      writeFileSync(path.join(probe, rel), text);
    };

    it('on a tree with an untyped table, a service sending to the queue, a job nobody registers and pages querying (one beside its hook, one without)', () => {
      write(
        'src/db/migrations/0001-probe.ts',
        "await runScript(db, 'CREATE TABLE typed (id text); CREATE TABLE IF NOT EXISTS domain_typed (id text); CREATE TABLE untyped (id text)');",
      );
      write('src/db/types.ts', 'export interface Database extends ProbeTables {\n  typed: TypedTable;\n}\n');
      write('src/db/tables/probe.ts', 'export type ProbeTables = { domain_typed: DomainTable };\n');
      write(
        'src/services/probe.ts',
        "declare module '../db/types.js' {}\nexport const go = (s: S) => s.queue.send('probe', {});\n",
      );
      write(
        'src/jobs/probe-job.ts',
        "export const probeQueue = defineJob<object>('probe');\nexport const listedQueue = defineJob<object>('listed');\n",
      );
      write('src/jobs/workers.ts', 'await listedQueue.register(services, work);\n');
      write('screens/probe/use-probe.ts', "import { useQuery } from 'urql';\n");
      write('screens/probe/probe-page.tsx', "import { useMutation } from 'urql';\n");
      write('screens/probe/hookless-page.tsx', "import { useQuery } from 'urql';\n");
      write('screens/probe/probe-dialog.tsx', "import { useMutation } from 'urql';\n");
      write('test/probe.test.ts', "await db.selectFrom('reels' as never).selectAll().execute();\n");
      const src = path.join(probe, 'src');
      expect(migrationTables(src)).toEqual(['domain_typed', 'typed', 'untyped']);
      expect(databaseTables(src)).toEqual(['domain_typed', 'typed']);
      expect(tableTypesElsewhere(src)).toEqual(['services/probe.ts']);
      expect(tableCastsInTests(path.join(probe, 'test'))).toEqual(['probe.test.ts']);
      expect(rawQueueCalls(src)).toEqual(['services/probe.ts']);
      expect(unregisteredJobs(src)).toEqual(['probeQueue']);
      expect(pagesThatQuery(path.join(probe, 'screens')).sort()).toEqual([
        'probe/hookless-page.tsx',
        'probe/probe-page.tsx',
      ]);
    });
  });
});
