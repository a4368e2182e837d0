/** Starts the real app on a free port against PGlite (in memory) or a fresh PostgreSQL database. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import pg from 'pg';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { buildApp, type App } from '../../src/app.js';
import type { RawConfig } from '../../src/config.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { createQueue } from '../../src/jobs/queue.js';

export type DbKind = 'pglite' | 'postgres';

/**
 * The engines integration tests run on: PGlite always; PostgreSQL when TEST_DATABASE_URL is set (the test command sets
 * it).
 */
export const DB_KINDS: DbKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface GqlResult<T = any> {
  status: number;
  data: T;
  errors?: Array<{ message: string; extensions?: { code?: string; [k: string]: unknown } }>;
}

export interface TestApp {
  app: App;
  url: string;
  dataDir: string;
  gql<T = any>(query: string, variables?: Record<string, unknown>, token?: string): Promise<GqlResult<T>>;
  wsClient(token?: string): Client;
  stop(): Promise<void>;
}

/** A new, empty database on TEST_DATABASE_URL's server (named `<prefix>_<random>`), and how to drop it. */
export async function createPostgresDatabase(
  prefix = 'rw_test',
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL!;
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    name,
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** One migrated embedded database per test process; every app starts from a copy (saves seconds per app). */
let templatePromise: Promise<Blob> | undefined;
function pgliteTemplate(): Promise<Blob> {
  templatePromise ??= (async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    const queue = await createQueue(db, { onError: () => undefined });
    await queue.stop({ graceful: false, timeout: 1000 });
    const blob = await db.dump!();
    await db.close();
    return blob;
  })();
  return templatePromise;
}

/** `logStream`: where the app's log lines go (tests that read them set LOG_LEVEL too). */
export async function startTestApp(
  kind: DbKind = 'pglite',
  overrides: Partial<RawConfig> = {},
  opts: { logStream?: Writable } = {},
): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-test-'));
  const pgdb = kind === 'postgres' ? await createPostgresDatabase() : null;
  const config = loadConfig(
    { NODE_ENV: 'test' },
    {
      PORT: 0,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      JWT_SECRET: randomBytes(24).toString('hex'),
      ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
      ...overrides,
    },
  );
  // PGlite in memory keeps tests fast; files still go to the temporary data folder.
  if (!pgdb && !overrides.DATA_DIR) config.DATA_DIR = 'memory://';
  const app = await buildApp({
    config,
    ...opts,
    ...(config.DATA_DIR === 'memory://' ? { pgliteTemplate: await pgliteTemplate() } : {}),
  });
  const listenUrl = await app.start();
  const port = new URL(listenUrl).port;
  const url = `http://127.0.0.1:${port}`;
  // Links in mails and media must point at the port we really got.
  app.config.publicUrl = url;
  const storageOpts = (app.services.storage as unknown as { opts?: { publicUrl: string } }).opts;
  if (storageOpts) storageOpts.publicUrl = url;
  const clients: Client[] = [];
  return {
    app,
    url,
    dataDir,
    async gql(query, variables, token) {
      const res = await fetch(`${url}/query`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { data: any; errors?: GqlResult['errors'] };
      return { status: res.status, data: body.data, ...(body.errors ? { errors: body.errors } : {}) };
    },
    wsClient(token) {
      const c = createClient({
        url: `${url.replace('http', 'ws')}/query`,
        webSocketImpl: WebSocket,
        connectionParams: token ? { authorization: `Bearer ${token}` } : {},
        retryAttempts: 0,
      });
      clients.push(c);
      return c;
    },
    async stop() {
      await Promise.all(clients.map((c) => c.dispose()));
      await app.stop();
      await pgdb?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Collects the next n events of a subscription. */
export function collect<T>(
  client: Client,
  query: string,
  variables: Record<string, unknown>,
  n: number,
): { done: Promise<T[]>; ready: Promise<void> } {
  const items: T[] = [];
  let resolveReady!: () => void;
  const ready = new Promise<void>((r) => (resolveReady = r));
  const done = new Promise<T[]>((resolve, reject) => {
    const unsubscribe = client.subscribe<T>(
      { query, variables },
      {
        next: (v) => {
          if (v.errors) return reject(new Error(JSON.stringify(v.errors)));
          items.push(v.data as T);
          if (items.length >= n) {
            unsubscribe();
            resolve(items);
          }
        },
        error: (e) => reject(e instanceof Error ? e : new Error(JSON.stringify(e))),
        complete: () => resolve(items),
      },
    );
    client.on('connected', () => resolveReady());
  });
  return { done, ready };
}
