/** The database: PGlite in the data folder by default, PostgreSQL when DATABASE_URL is set. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './types.js';
import { migrations } from './migrations/index.js';
import { PGliteDialect, SessionLock } from './pglite-dialect.js';

interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export interface Db extends SqlExecutor {
  kind: 'pglite' | 'postgres';
  db: Kysely<Database>;
  /** Subscribes to a NOTIFY channel; returns an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
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
}

// pg returns bigint counts as strings; our counts fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export async function openDatabase(opts: DbOptions): Promise<Db> {
  const db = opts.databaseUrl
    ? await openPostgres(opts.databaseUrl)
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
    async close() {
      await db.destroy();
      await client.close();
    },
    async dump() {
      return lock.run(() => client.dumpDataDir('none'));
    },
  };
}

async function openPostgres(url: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client dropped by the server (restart, failover, database dropped) must not crash the process.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  let listener: pg.Client | null = null;
  const handlers = new Map<string, Set<(p: string) => void>>();
  async function listenerClient(): Promise<pg.Client> {
    if (listener) return listener;
    const c = new pg.Client({ connectionString: url });
    c.on('error', () => {
      listener = null;
    });
    await c.connect();
    c.on('notification', (n) => {
      for (const h of handlers.get(n.channel) ?? []) h(n.payload ?? '');
    });
    listener = c;
    return c;
  }
  return {
    kind: 'postgres',
    db,
    async executeSql(text, values) {
      const res = await pool.query(text, values as unknown[] | undefined);
      return { rows: Array.isArray(res) ? (res.at(-1)?.rows ?? []) : res.rows };
    },
    async listen(channel, onPayload) {
      const c = await listenerClient();
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
      set.add(onPayload);
      return async () => {
        set!.delete(onPayload);
      };
    },
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      await listener?.end().catch(() => undefined);
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
