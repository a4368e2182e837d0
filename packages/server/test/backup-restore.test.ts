/**
 * Backups as docs/operations.md describes them: pg_dump (custom format) of the database plus a copy of the files,
 * wipe both, restore with pg_restore into a new empty database, start the app on it: the tour still plays (its query
 * answers the same clips and markers, its clip URLs serve bytes), sessions still work, and new jobs still queue.
 * PostgreSQL only (TEST_DATABASE_URL), with pg_dump/pg_restore from the same Debian packages.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { Q, seedProcessedTour } from './fixtures/tours.js';

const run = promisify(execFile);
const base = process.env.TEST_DATABASE_URL;
const PG_DUMP = process.env.PG_DUMP ?? '/usr/bin/pg_dump';
const PG_RESTORE = process.env.PG_RESTORE ?? '/usr/bin/pg_restore';

async function admin(statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

async function start(databaseUrl: string, dataDir: string, jwtSecret: string): Promise<{ app: App; url: string }> {
  const config = loadConfig(
    { NODE_ENV: 'test' },
    {
      PORT: 0,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      JWT_SECRET: jwtSecret,
      DATABASE_URL: databaseUrl,
    },
  );
  const app = await buildApp({ config });
  const url = (await app.start()).replace('localhost', '127.0.0.1');
  // Media links must point at the port we really got.
  app.config.publicUrl = url;
  (app.services.storage as unknown as { opts: { publicUrl: string } }).opts.publicUrl = url;
  return { app, url };
}

async function gql(url: string, query: string, variables: Record<string, unknown>, token?: string) {
  const res = await fetch(`${url}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as { data: any; errors?: unknown[] };
}

describe.skipIf(!base || !existsSync(PG_DUMP) || !existsSync(PG_RESTORE))(
  'backup and restore (pg_dump, pg_restore, files)',
  () => {
    const name = `rw_backup_${randomBytes(5).toString('hex')}`;
    const restoredName = `${name}_r`;
    const jwtSecret = randomBytes(24).toString('hex');
    const url = (db: string) => {
      const u = new URL(base!);
      u.pathname = `/${db}`;
      return u.toString();
    };
    let work = '';
    let running: App | undefined;

    afterAll(async () => {
      await running?.stop();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin(`DROP DATABASE IF EXISTS ${restoredName} WITH (FORCE)`);
      if (work) await fs.rm(work, { recursive: true, force: true });
    });

    it('dumps, wipes, restores into an empty database, and the tour still plays', async () => {
      work = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-backup-'));
      const dataDir = path.join(work, 'data');
      await admin(`CREATE DATABASE ${name}`);
      const first = await start(url(name), dataDir, jwtSecret);
      running = first.app;
      const owner = await seedUser(first.app, { plan: 'pro' });
      const tour = await seedProcessedTour({ app: first.app } as TestApp, owner, 3);
      await first.app.services.db
        .insertInto('markers')
        .values({ tour_id: tour.row.id, name: 'Kitchen', frame_index: 40, created_at: new Date() })
        .execute();
      const before = await gql(first.url, Q.tour, { id: tour.id }, owner.token);
      expect(before.errors).toBeUndefined();
      expect(before.data.tour.clips).toHaveLength(3);

      // The backup: the database in pg_dump's custom format, and the files (here DATA_DIR/files; a bucket has its own).
      const dump = path.join(work, 'roomwalk.dump');
      await run(PG_DUMP, ['--format=custom', '--no-owner', `--file=${dump}`, url(name)]);
      await fs.cp(path.join(dataDir, 'files'), path.join(work, 'files-backup'), { recursive: true });

      // Disaster: the app stops, the database and the files are gone.
      await first.app.stop();
      running = undefined;
      await admin(`DROP DATABASE ${name} WITH (FORCE)`);
      await fs.rm(path.join(dataDir, 'files'), { recursive: true, force: true });

      // Restore into a new, empty database, put the files back, start the app on them.
      await admin(`CREATE DATABASE ${restoredName}`);
      await run(PG_RESTORE, ['--no-owner', '--exit-on-error', `--dbname=${url(restoredName)}`, dump]);
      await fs.cp(path.join(work, 'files-backup'), path.join(dataDir, 'files'), { recursive: true });
      const second = await start(url(restoredName), dataDir, jwtSecret);
      running = second.app;

      // Same tour, same clips and markers; the session token issued before the backup still signs in.
      const after = await gql(second.url, Q.tour, { id: tour.id }, owner.token);
      expect(after.errors).toBeUndefined();
      const strip = (t: Record<string, any>) => ({
        ...t,
        thumbnailURL: undefined,
        clips: t.clips.map((c: Record<string, unknown>) => ({ ...c, highURI: undefined, lowURI: undefined })),
      });
      expect(strip(after.data.tour)).toEqual(strip(before.data.tour));
      expect(after.data.tour.markers.map((m: { name: string }) => m.name)).toEqual(['Kitchen']);
      // Its clip URLs answer, with byte ranges, from the restored files.
      for (const clip of after.data.tour.clips as Array<{ highURI: string; lowURI: string }>) {
        expect(clip.highURI.startsWith(second.url)).toBe(true);
        const res = await fetch(clip.highURI, { headers: { Range: 'bytes=0-9' } });
        expect(res.status).toBe(206);
        expect((await res.arrayBuffer()).byteLength).toBe(10);
        expect((await fetch(clip.lowURI)).status).toBe(200);
      }
      // The public player query counts a view on the restored database; the job queue (pg-boss schema) came back too.
      expect((await gql(second.url, Q.tour, { id: tour.id })).data.tour.id).toBe(tour.id);
      expect(await second.app.services.queue.send('restore-check', { ok: true })).toBeTruthy();
    });
  },
);
