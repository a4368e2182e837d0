/**
 * Claims of docs/code-map.md that a test can check and the architecture test (import rules) does not: every file and
 * symbol the map names exists (a row naming a removed function fails), every table a migration creates has its row
 * type in the one `Database` (db/types.ts, per-domain parts in db/tables/), only the job modules talk to the queue, only
 * the queue module names pg-boss's tables, every job module is registered in jobs/workers.ts, every mail is framed by
 * mail/templates.ts alone, no console screen module but a `use-*` hook queries or mutates (imports urql), and nothing
 * that expires reads a clock other than the server's one (core/clock.ts). Each check reads source text, and the last
 * test runs them on a small broken tree to show they bite.
 */
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const packages = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const repo = path.resolve(packages, '..');
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

/** Modules that build a mail (name `MailMessage`) and write its HTML frame themselves: only mail/templates.ts may. */
function mailFrames(src: string): string[] {
  return tsFiles(src).filter((f) => {
    const text = read(path.join(src, f));
    return /\bMailMessage\b/.test(text) && /<html|<body/.test(text);
  });
}

/** Modules other than the queue module that name pg-boss's tables (`pgboss.job`, …) in SQL. */
function pgBossTableUsers(src: string): string[] {
  return tsFiles(src).filter((f) => f !== 'jobs/queue.ts' && /\bpgboss\.\w/.test(read(path.join(src, f))));
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
 * Where something that expires reads a clock of its own instead of the server's one (core/clock.ts serverNow;
 * docs/code-map.md "Something that expires"), as `file:line`. Two shapes, read line by line, narrow on purpose:
 * a default that reads the system clock for a `now…` argument or option (`now = new Date()`, `nowMs = Date.now()`,
 * `now = () => new Date()`, `opts.now ?? new Date()`), so a caller that forgets to pass the time gets the wrong clock
 * silently; and a line about an expiry (`expir…`, `valid_until`, `end_date`, `period_end`) that reads the system's or
 * the database's clock (`new Date()`, `Date.now()`, SQL `now()`), whether it writes the expiry or compares with it. A
 * `const now = new Date()` in a body is not matched (reports and timestamps record; they decide nothing), nor is a
 * `serverNow(...)` default. The modules in CLOCK_EXEMPT keep another clock for the reason given there; media/ is the
 * processing's (nothing there expires).
 */
const CLOCK_EXEMPT: Record<string, string> = {
  'core/clock.ts': 'the one clock itself',
  'storage/local-storage.ts':
    "stands in for an S3-compatible store's presigned URLs, which the store checks by its own (system) clock",
  'jobs/job-lease.ts': "a lease between processes: the database's clock, the only one every node shares",
  'jobs/queue.ts': "pg-boss's own jobs, on the database's clock",
};
function ownClockExpiries(src: string): string[] {
  const systemDefault =
    /(?<!(?:const|let|var)\s+)\bnow\w*\s*(?::\s*[\w.<>]+\s*)?(?:=|\?\?)\s*(?:\(\)\s*=>\s*)?(?:new Date\(\)|Date\.now\(\))/;
  const expiry = /expir|valid_until|end_date|period_end/i;
  const ownClock = /new Date\(\)|Date\.now\(\)|\bnow\(\)/;
  return tsFiles(src)
    .filter((f) => !f.startsWith('media/') && !(f in CLOCK_EXEMPT))
    .flatMap((f) =>
      read(path.join(src, f))
        .split('\n')
        .flatMap((line, i) =>
          systemDefault.test(line) || (expiry.test(line) && ownClock.test(line)) ? [`${f}:${i + 1}`] : [],
        ),
    );
}

/**
 * Console screen modules that query or mutate themselves (import urql, `urql` or `@urql/*`, even for a type): a
 * screen reads and writes data only through its `use-<thing>.ts(x)` hooks beside it; its pages, dialogs, sections and
 * plain modules render or compute. Tests may script urql. Paths relative to `screens`.
 */
function screensThatQuery(screens: string): string[] {
  const urql = /\bfrom\s*['"](?:urql|@urql\/[^'"]+)['"]|\bimport\s*\(?\s*['"](?:urql|@urql\/[^'"]+)['"]/;
  return readdirSync(screens, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => /\.tsx?$/.test(f) && !/(^|\/)use-[^/]+\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .filter((f) => urql.test(read(path.join(screens, f))))
    .sort();
}

/** Every file under `dir` (relative, `/`-separated), without dependencies, builds and generated test data. */
function filesUnder(
  dir: string,
  skip = new Set(['node_modules', 'dist', '.fixtures', 'test-artifacts', '.git']),
): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    if (skip.has(d.name)) return [];
    if (!d.isDirectory()) return [d.name];
    return filesUnder(path.join(dir, d.name), skip).map((f) => `${d.name}/${f}`);
  });
}

/** The file paths a package's .gitignore lists (generated files; folders and patterns left out). */
function ignoredFiles(dir: string): string[] {
  const file = path.join(dir, '.gitignore');
  if (!existsSync(file)) return [];
  return read(file)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#') && !line.endsWith('/') && !/[*?[!]/.test(line));
}

const SOURCE = /\.(ts|tsx|mjs|cjs|js|json|graphql|html|css)$/;
const PATH_LIKE = /^[\w.@/-]+\.(ts|tsx|mjs|cjs|js|json|md|graphql|css|html)$|^[\w.@-]+(\/[\w.@-]+)*\/$/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*(\(\))?$/;
const KEBAB = /^[a-z]+(-[a-z0-9]+)+$/;

/**
 * The names in backticks of one section of the code map that do not exist: a path (`http/refuse.ts`, `services/live/`,
 * a bare file name like `use-team.ts`) found under none of `roots` (tried in order: the package's `src/`, the package,
 * the repository), or an identifier (`errorCodeToHttpStatus`, `refuse()`) or a kebab-case name (`home-url`) that no
 * source file of the package (nor shared, which every package reads) contains as a word. Patterns (`<domain>`, `*`)
 * and code (`a => b`, `ROLE=worker`) are not claims a file can answer and are skipped.
 */
function missingNames(section: string, roots: string[], sources: string[]): string[] {
  const files = roots.map((r) => new Set(filesUnder(r)));
  const text = sources.flatMap((dir) =>
    filesUnder(dir)
      .filter((f) => SOURCE.test(f))
      .map((f) => read(path.join(dir, f))),
  );
  const all = text.join('\n');
  const names = [...new Set([...section.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim()))];
  return names.filter((name) => {
    if (PATH_LIKE.test(name)) {
      const p = name.replace(/\/$/, '');
      // Exactly under a root, or under a folder the row names before (`services/account-reads.ts`, `live/lead-reads.ts`),
      // or a file a build writes (`tour-player.js`), named in quotes by the source that writes it, or a generated file
      // a root's .gitignore lists (`graphql-env.d.ts`: written by the type check, absent from a fresh clone).
      return (
        !files.some((set) => [...set].some((f) => f === p || f.endsWith(`/${p}`) || f.includes(`${p}/`))) &&
        !all.includes(`'${p}'`) &&
        !roots.flatMap(ignoredFiles).some((f) => f === p || f.endsWith(`/${p}`))
      );
    }
    if (IDENTIFIER.test(name) || KEBAB.test(name)) {
      const word = name.replace(/\(\)$/, '').replace(/\$/g, '\\$');
      return !new RegExp(`(^|[^\\w$-])${word}($|[^\\w$-])`).test(all);
    }
    return false;
  });
}

/** The code map's sections (`## Server`, …) by heading. */
function sections(doc: string): Record<string, string> {
  return Object.fromEntries(
    doc
      .split(/^## /m)
      .slice(1)
      .map((s) => [s.slice(0, s.indexOf('\n')).trim(), s]),
  );
}

describe('docs/code-map.md, the claims a test can check', () => {
  it('every file, folder and symbol the map names exists', () => {
    const map = sections(read(path.join(repo, 'docs/code-map.md')));
    const pkg = (name: string) => path.join(packages, name);
    const shared = path.join(packages, 'shared/src');
    const check = (section: string, name: string) =>
      missingNames(map[section] ?? '', [path.join(pkg(name), 'src'), pkg(name), repo], [pkg(name), shared]);
    expect(Object.keys(map)).toEqual(['Server', 'Player', 'Console']);
    expect({
      Server: check('Server', 'server'),
      Player: check('Player', 'player-element'),
      Console: check('Console', 'console'),
    }).toEqual({ Server: [], Player: [], Console: [] });
  });

  it('every table a migration creates is in the one Database type (db/types.ts with db/tables/<domain>.ts), no module types tables elsewhere, and no test casts a table name', () => {
    const created = migrationTables(serverSrc);
    expect(created.length).toBeGreaterThan(30);
    expect(created.filter((t) => !databaseTables(serverSrc).includes(t))).toEqual([]);
    expect(tableTypesElsewhere(serverSrc)).toEqual([]);
    expect(tableCastsInTests(path.join(packages, 'server/test'))).toEqual([]);
  });

  it("only the queue module calls the queue (services enqueue through job modules) or names pg-boss's tables, and jobs/workers.ts registers every job module", () => {
    expect(rawQueueCalls(serverSrc)).toEqual([]);
    expect(pgBossTableUsers(serverSrc)).toEqual([]);
    expect(unregisteredJobs(serverSrc)).toEqual([]);
  });

  it("every mail is framed by mail/templates.ts's renderMail (one HTML frame)", () => {
    expect(mailFrames(serverSrc)).toEqual(['mail/templates.ts']);
  });

  it('no console screen module queries or mutates itself: pages, dialogs and sections leave that to their use-* hooks', () => {
    expect(screensThatQuery(consoleScreens)).toEqual([]);
  });

  it("nothing that expires reads a clock of its own: every expiry is written and checked by the server's one clock (core/clock.ts serverNow)", () => {
    expect(ownClockExpiries(serverSrc)).toEqual([]);
  });

  describe('the checks bite', () => {
    const probe = mkdtempSync(path.join(tmpdir(), 'code-map-probe-'));
    afterAll(() => rmSync(probe, { recursive: true, force: true }));
    const write = (rel: string, text: string) => {
      mkdirSync(path.dirname(path.join(probe, rel)), { recursive: true });
      writeFileSync(path.join(probe, rel), text);
    };

    it('on a tree with an untyped table, a service sending to the queue, a job nobody registers, screen modules querying and expiries on the system clock', () => {
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
      write('src/jobs/queue.ts', "await db.executeSql('SELECT 1 FROM pgboss.job');\n");
      write('src/jobs/probe-lease.ts', "await db.executeSql('UPDATE pgboss.job SET started_on = now()');\n");
      write('screens/probe/use-probe.ts', "import { useQuery } from 'urql';\n");
      write('screens/probe/probe-page.tsx', "import { useMutation } from 'urql';\n");
      write('screens/probe/hookless-page.tsx', "import { useQuery } from 'urql';\n");
      write('screens/probe/probe-dialog.tsx', "import { useMutation } from 'urql';\n");
      write('screens/probe/nested/probe-section.tsx', "import type { CombinedError } from 'urql';\n");
      write('screens/probe/probe-client.ts', "import { Client } from '@urql/core';\n");
      write('screens/probe/probe-form.tsx', "import { useForm } from 'react-hook-form';\n");
      write('screens/probe/use-probe-dialog.tsx', "import { useMutation } from 'urql';\n");
      write('screens/probe/probe-dialog.test.tsx', "import { Provider } from 'urql';\n");
      write('test/probe.test.ts', "await db.selectFrom('reels' as never).selectAll().execute();\n");
      write(
        'src/mail/templates.ts',
        'export const renderMail = (): MailMessage => ({ html: `<html><body></body></html>` });\n',
      );
      write(
        'src/services/probe-mail.ts',
        'export const probeMail = (): MailMessage => ({ html: `<!doctype html><html>` });\n',
      );
      write('src/decode/decode-scheduler.ts', 'export class DecodeScheduler {\n  plan() {}\n}\n');
      write(
        'src/services/probe-expiry.ts',
        [
          'export async function expireThings(db: Db, now = new Date()) {',
          "  await db.deleteFrom('things').where('expires_at', '<', sql`now()`).execute();",
          '  const at = serverNow(services);',
          "  if (row.expires_at <= at) return 'expired';",
          '  const stamp = new Date();',
          '  if (expiresAt.getTime() <= Date.now()) return;',
          '  const t = opts.now ?? new Date();',
          '}',
          'export const live = (s: S, nowMs = serverNow(s).getTime()) => nowMs;',
          'export const sign = (s: S, nowMs: number = Date.now()) => nowMs;',
        ].join('\n'),
      );
      write('src/media/probe-media.ts', 'export const probe = (now = new Date()) => now;\n');
      write('src/core/clock.ts', 'export const serverNow = (s: S) => new Date(Date.now() + s.clockOffsetMs);\n');
      const src = path.join(probe, 'src');
      expect(migrationTables(src)).toEqual(['domain_typed', 'typed', 'untyped']);
      expect(databaseTables(src)).toEqual(['domain_typed', 'typed']);
      expect(tableTypesElsewhere(src)).toEqual(['services/probe.ts']);
      expect(tableCastsInTests(path.join(probe, 'test'))).toEqual(['probe.test.ts']);
      expect(rawQueueCalls(src)).toEqual(['services/probe.ts']);
      expect(pgBossTableUsers(src)).toEqual(['jobs/probe-lease.ts']);
      expect(unregisteredJobs(src)).toEqual(['probeQueue']);
      expect(mailFrames(src).sort()).toEqual(['mail/templates.ts', 'services/probe-mail.ts']);
      expect(ownClockExpiries(src)).toEqual([
        'services/probe-expiry.ts:1',
        'services/probe-expiry.ts:2',
        'services/probe-expiry.ts:6',
        'services/probe-expiry.ts:7',
        'services/probe-expiry.ts:10',
      ]);
      // A row naming a function removed from the code (the old scheduler's deferBackward), a missing file and folder.
      const row =
        '| Which frames | `decode/decode-scheduler.ts` (`DecodeScheduler`, `plan()`) | `deferBackward` (`decode/gone.ts`, `paint/`, `<x>.ts`) |';
      expect(missingNames(row, [src], [src])).toEqual(['deferBackward', 'decode/gone.ts', 'paint/']);
      expect(screensThatQuery(path.join(probe, 'screens'))).toEqual([
        'probe/hookless-page.tsx',
        'probe/nested/probe-section.tsx',
        'probe/probe-client.ts',
        'probe/probe-dialog.tsx',
        'probe/probe-page.tsx',
      ]);
    });
  });
});
