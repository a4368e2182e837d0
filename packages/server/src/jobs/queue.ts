/** Background jobs on pg-boss over the same database (PGlite through its executeSql adapter, or PostgreSQL). */
import PgBoss from 'pg-boss';
import type { Db } from '../db/database.js';

export type JobHandler<T> = (job: { id: string; data: T; retryCount?: number }) => Promise<void>;

export interface JobQueue {
  send<T extends object>(name: string, data: T, options?: PgBoss.SendOptions): Promise<string | null>;
  /** Registers a worker; only called on nodes with the worker role. */
  work<T extends object>(name: string, handler: JobHandler<T>, options?: { batchSize?: number; pollingIntervalSeconds?: number }): Promise<void>;
  boss: PgBoss;
  stop(opts?: { graceful?: boolean; timeout?: number }): Promise<void>;
}

export const QUEUES = {
  mail: 'mail',
  processTour: 'process-tour',
} as const;

export async function createQueue(database: Db, opts: { databaseUrl?: string | undefined; onError: (e: Error) => void }): Promise<JobQueue> {
  const boss = opts.databaseUrl
    ? new PgBoss({ connectionString: opts.databaseUrl, schema: 'pgboss' })
    : new PgBoss({ db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) }, schema: 'pgboss' } as PgBoss.ConstructorOptions);
  boss.on('error', opts.onError);
  await boss.start();
  // pg-boss 10 gives each queue a partition created by DDL that deadlocks when two processes create queues at the same
  // time (several workers starting together on a fresh database): PostgreSQL aborts one of them, which simply tries again.
  const createQueue = boss.createQueue.bind(boss);
  boss.createQueue = async (name: string, options?: PgBoss.Queue) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await createQueue(name, options);
      } catch (err) {
        if ((err as { code?: string }).code !== '40P01' || attempt >= 5) throw err;
      }
    }
  };
  const created = new Set<string>();
  async function ensureQueue(name: string) {
    if (created.has(name)) return;
    await boss.createQueue(name, { name, retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 * 30 } as PgBoss.Queue);
    created.add(name);
  }
  return {
    boss,
    async send(name, data, options) {
      await ensureQueue(name);
      return boss.send(name, data, options ?? {});
    },
    async work(name, handler, options) {
      await ensureQueue(name);
      await boss.work(name, { batchSize: options?.batchSize ?? 1, pollingIntervalSeconds: options?.pollingIntervalSeconds ?? 0.5 }, async (jobs) => {
        for (const job of jobs) await handler(job as unknown as { id: string; data: never });
      });
    },
    async stop(o) {
      await boss.stop({ graceful: o?.graceful ?? true, timeout: o?.timeout ?? 10_000, wait: true });
    },
  };
}
