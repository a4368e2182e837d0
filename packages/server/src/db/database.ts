/** The database: PGlite in the data folder by default, PostgreSQL when DATABASE_URL is set. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './types.js';
import { migrations } from './migrations/index.js';
import { PGliteDialect, SessionLock } from './pglite-dialect.js';
import { ALWAYS_LISTENING, NoticeListener, type NoticeChannel } from './notice-listener.js';

interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export interface Db extends SqlExecutor {
  kind: 'pglite' | 'postgres';
  db: Kysely<Database>;
  /** Subscribes to a NOTIFY channel; returns an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /** Whether this process hears the database's notices now (PostgreSQL's LISTEN connection comes back by itself). */
  notices: NoticeChannel;
  close(): Promise<void>;
  /** PGlite only: the data folder as a tarball, to start other instances from. */
  dump?(): Promise<Blob>;
}

export interface DbOptions {
  databaseUrl?: string | undefined;
  /** PGlite folder; 'memory://' keeps it in memory. */
  dataDir: string;
  /** Start PGlite from a dumped data folder (tests start from one migrated template). */
  pgliteTemplate?: Blob | undefined;
  /** PostgreSQL: the LISTEN connection (NOTICE_DATABASE_URL, else databaseUrl) and how it comes back. */
  notices?: {
    url?: string | undefined;
    retryMaxMs?: number;
    checkMs?: number;
    report?: (err: unknown, what: string) => void;
  };
}

// pg returns bigint counts as strings; our counts fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export async function openDatabase(opts: DbOptions): Promise<Db> {
  const db = opts.databaseUrl
    ? await openPostgres(opts.databaseUrl, opts.notices)
    : await openPglite(opts.dataDir, opts.pgliteTemplate);
  await migrate(db.db);
  return db;
}

async function openPglite(dataDir: string, template?: Blob): Promise<Db> {
  let target = dataDir;
  if (!dataDir.startsWith('memory://')) {
    target = path.resolve(dataDir);
    await fs.mkdir(target, { recursive: true });
  }
  const client = await PGlite.create(target, template ? { loadDataDir: template } : {});
  const lock = new SessionLock();
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client, lock) });
  return {
    kind: 'pglite',
    db,
    async executeSql(text, values) {
      return lock.run(async () => {
        if (values && values.length > 0) return { rows: (await client.query(text, values)).rows };
        // pg-boss sends multi-statement scripts without parameters; exec runs them in one go.
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      });
    },
    async listen(channel, onPayload) {
      const off = await lock.run(() => client.listen(channel, onPayload));
      return async () => lock.run(() => off());
    },
    async notify(channel, payload) {
      await lock.run(() => client.query('SELECT pg_notify($1, $2)', [channel, payload]));
    },
    notices: ALWAYS_LISTENING,
    async close() {
      await db.destroy();
      await client.close();
    },
    async dump() {
      return lock.run(() => client.dumpDataDir('none'));
    },
  };
}

async function openPostgres(url: string, notices: DbOptions['notices'] = {}): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client dropped by the server (restart, failover, database dropped) must not crash the process.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const listener = new NoticeListener({
    url: notices.url ?? url,
    retryMaxMs: notices.retryMaxMs ?? 10_000,
    checkMs: notices.checkMs ?? 30_000,
    report: notices.report,
  });
  let started: Promise<void> | undefined;
  return {
    kind: 'postgres',
    db,
    async executeSql(text, values) {
      const res = await pool.query(text, values as unknown[] | undefined);
      return { rows: Array.isArray(res) ? (res.at(-1)?.rows ?? []) : res.rows };
    },
    async listen(channel, onPayload) {
      const off = await listener.listen(channel, onPayload);
      started ??= listener.start();
      await started;
      return off;
    },
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    notices: listener,
    async close() {
      await listener.close();
      await db.destroy();
    },
  };
}

/** Runs every pending migration; throws with the failing migration's name. */
async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error)
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error).message ?? error)}`);
}
