/** Background jobs on pg-boss over the same database (PGlite through its executeSql adapter, or PostgreSQL). */
import PgBoss from 'pg-boss';
import type { Db } from '../db/database.js';

type JobHandler<T> = (job: { id: string; data: T; retryCount?: number }) => Promise<void>;

/**
 * A lease on a running job (crash recovery): the job's pg-boss expiry is short (`seconds`) and renewed every
 * `heartbeatSeconds` while its handler runs, up to `maxSeconds` in all. A worker that dies (SIGKILL, OOM, lost host)
 * stops renewing, so pg-boss's maintenance (every `maintenanceIntervalSeconds`) fails the job by timeout within about
 * `seconds` and retries it on another worker, instead of after the whole `maxSeconds`.
 */
interface JobLease {
  seconds: number;
  heartbeatSeconds: number;
  maxSeconds: number;
}

/** How often pg-boss expires jobs whose lease ran out (its default is 120 s). */
const DEFAULT_MAINTENANCE_INTERVAL_SECONDS = 10;

export interface JobQueue {
  send<T extends object>(name: string, data: T, options?: PgBoss.SendOptions): Promise<string | null>;
  /** Registers a worker; only called on nodes with the worker role. */
  work<T extends object>(name: string, handler: JobHandler<T>, options?: { batchSize?: number; pollingIntervalSeconds?: number; lease?: JobLease }): Promise<void>;
  boss: PgBoss;
  stop(opts?: { graceful?: boolean; timeout?: number }): Promise<void>;
}

export const QUEUES = {
  mail: 'mail',
  processTour: 'process-tour',
  /** One segment of a long video (jobs/process-tour-segments.ts). */
  processTourSegment: 'process-tour-segment',
  /** Joins a tour's finished segments into its clips. */
  processTourJoin: 'process-tour-join',
} as const;

export async function createQueue(database: Db, opts: { databaseUrl?: string | undefined; onError: (e: Error) => void; maintenanceIntervalSeconds?: number | undefined }): Promise<JobQueue> {
  const maintenanceIntervalSeconds = opts.maintenanceIntervalSeconds ?? DEFAULT_MAINTENANCE_INTERVAL_SECONDS;
  const boss = opts.databaseUrl
    ? new PgBoss({ connectionString: opts.databaseUrl, schema: 'pgboss', maintenanceIntervalSeconds })
    : new PgBoss({ db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) }, schema: 'pgboss', maintenanceIntervalSeconds } as PgBoss.ConstructorOptions);
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
      const lease = options?.lease;
      await boss.work(name, { batchSize: options?.batchSize ?? 1, pollingIntervalSeconds: options?.pollingIntervalSeconds ?? 0.5 }, async (jobs) => {
        for (const job of jobs) {
          const stopHeartbeat = lease ? await heartbeat(database, name, job.id, lease, opts.onError) : () => undefined;
          try {
            await handler(job as unknown as { id: string; data: never });
          } finally {
            stopHeartbeat();
          }
        }
      });
    },
    async stop(o) {
      await boss.stop({ graceful: o?.graceful ?? true, timeout: o?.timeout ?? 10_000, wait: true });
    },
  };
}

/**
 * Takes a lease on a running job and renews it every `heartbeatSeconds`: its expiry becomes "now + lease" (never past
 * `maxSeconds` from its start). Only an active job is touched, so a job already expired and retried elsewhere stays as
 * it is. The job is sent with `expireInSeconds = maxSeconds`: pg-boss's worker times the handler out at the expiry it
 * fetched, so that must be the whole allowance; the lease is taken here, before the handler starts.
 */
async function heartbeat(database: Db, name: string, id: string, lease: JobLease, onError: (e: Error) => void): Promise<() => void> {
  const renew = () =>
    database
      .executeSql(
        `UPDATE pgboss.job SET expire_in = LEAST(now() - started_on + make_interval(secs => $3), make_interval(secs => $4))
          WHERE name = $1 AND id = $2 AND state = 'active'`,
        [name, id, lease.seconds, lease.maxSeconds],
      )
      .catch((err: Error) => onError(err));
  await renew();
  const timer = setInterval(() => void renew(), lease.heartbeatSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
