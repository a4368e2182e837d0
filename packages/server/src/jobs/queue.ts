/** Background jobs on pg-boss over the same database (PGlite through its executeSql adapter, or PostgreSQL). */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import type { Db } from '../db/database.js';

/**
 * A running job as its handler sees it. `signal` aborts when the queue stops; a leased job's also when it lost its
 * lease or ran past its allowance (see JobLease). A short job may ignore it: it then gets the stop's grace period.
 */
interface RunningJob<T> {
  id: string;
  data: T;
  signal: AbortSignal;
}
type JobHandler<T> = (job: RunningJob<T>) => Promise<void>;

/**
 * Crash recovery for long jobs (media processing), in two parts renewed together every `heartbeatSeconds`:
 * - Liveness: pg-boss fails an active job by timeout when `started_on + expire_in` has passed. The heartbeat keeps
 *   that moment `seconds` ahead by moving the row's `started_on` back (never past the real start, so the whole
 *   `maxSeconds` allowance still holds). `expire_in` is never touched: pg-boss copies it into the retry and times the
 *   retry's handler out by it, so a shortened value there failed a healthy retry (issue 29).
 * - Exclusion: `key(data)` names the work (a tour's processing); one attempt holds the key in `job_leases` while it
 *   runs, and another attempt of the same work waits until it is released or has run out. A holder that finds its job
 *   or its key taken over (it stalled past the lease) is aborted through its signal, and so is every leased job when
 *   the queue stops (SIGTERM): it is failed back to pg-boss for a retry at once instead of dying with the process.
 */
interface JobLease<T> {
  seconds: number;
  heartbeatSeconds: number;
  maxSeconds: number;
  key: (data: T) => string;
}

/** How often pg-boss expires jobs whose lease ran out (its default is 120 s). */
const DEFAULT_MAINTENANCE_INTERVAL_SECONDS = 10;

export interface JobQueue {
  send<T extends object>(name: string, data: T, options?: PgBoss.SendOptions): Promise<string | null>;
  /** Registers a worker; only called on nodes with the worker role. */
  work<T extends object>(name: string, handler: JobHandler<T>, options?: { batchSize?: number; pollingIntervalSeconds?: number; lease?: JobLease<T> }): Promise<void>;
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
  const running = new Set<AbortController>();
  const stopping = new AbortController();
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
      await boss.work(name, { batchSize: options?.batchSize ?? 1, pollingIntervalSeconds: options?.pollingIntervalSeconds ?? 0.5, includeMetadata: !!lease }, async (jobs) => {
        for (const job of jobs) {
          const data = job.data as Parameters<typeof handler>[0]['data'];
          if (!lease) {
            await handler({ id: job.id, data, signal: stopping.signal });
            continue;
          }
          const meta = job as unknown as { retryCount: number; startedOn: Date };
          await runLeased(database, { name, id: job.id, retryCount: meta.retryCount, startedOn: meta.startedOn, key: lease.key(data) }, lease, running, opts.onError, (signal) =>
            handler({ id: job.id, data, signal }),
          );
        }
      });
    },
    async stop(o) {
      // Long jobs stop now and go back to the queue (their work folders removed); short ones get the grace period.
      for (const controller of running) controller.abort(new JobStoppedError('the worker is stopping'));
      stopping.abort(new JobStoppedError('the worker is stopping'));
      await boss.stop({ graceful: o?.graceful ?? true, timeout: o?.timeout ?? 10_000, wait: true });
    },
  };
}

/** Why a leased job's signal aborted: the worker stops, or the job or its key went to another attempt. */
class JobStoppedError extends Error {}

interface LeasedJob {
  name: string;
  id: string;
  retryCount: number;
  startedOn: Date;
  key: string;
}

/** Runs one leased job: heartbeat, wait for its key, the handler, release (see JobLease). */
async function runLeased(database: Db, job: LeasedJob, lease: JobLease<never>, running: Set<AbortController>, onError: (e: Error) => void, run: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const holder = randomUUID();
  const controller = new AbortController();
  const abort = (why: string) => controller.abort(new JobStoppedError(why));
  running.add(controller);
  let holding = false;
  const tick = async () => {
    if (controller.signal.aborted) return;
    // Only this attempt's row: a retry keeps the job id, and its retry_count is one more.
    const res = await database.executeSql(
      `UPDATE pgboss.job SET started_on = LEAST(now() + make_interval(secs => $3) - expire_in, $4::timestamptz)
        WHERE name = $1 AND id = $2 AND state = 'active' AND retry_count = $5 RETURNING id`,
      [job.name, job.id, lease.seconds, job.startedOn, job.retryCount],
    );
    if (res.rows.length === 0) return abort('the job was given to another attempt');
    if (holding && !(await takeLease(database, job.key, holder, lease.seconds))) abort('another attempt took over this work');
  };
  const beat = () => void tick().catch((err: Error) => onError(err));
  const timer = setInterval(beat, lease.heartbeatSeconds * 1000);
  timer.unref();
  const deadline = setTimeout(() => abort('the job ran past its allowance'), lease.maxSeconds * 1000);
  deadline.unref();
  try {
    await tick();
    for (;;) {
      holding = await takeLease(database, job.key, holder, lease.seconds);
      if (holding) break;
      await delay(lease.heartbeatSeconds * 1000, undefined, { signal: controller.signal });
    }
    controller.signal.throwIfAborted();
    await run(controller.signal);
  } finally {
    clearInterval(timer);
    clearTimeout(deadline);
    running.delete(controller);
    if (holding) await releaseLease(database, job.key, holder).catch((err: Error) => onError(err));
  }
}

/**
 * Takes (or renews) the lease on `key` for `holder` for `seconds`; answers false while another holder's lease runs.
 * The one mechanism for "at most one at a time" across processes (processing attempts, webhook slots per company).
 */
export async function takeLease(database: Db, key: string, holder: string, seconds: number): Promise<boolean> {
  const res = await database.executeSql(
    `INSERT INTO job_leases (key, holder, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))
       ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE job_leases.holder = excluded.holder OR job_leases.expires_at < now()
     RETURNING key`,
    [key, holder, seconds],
  );
  return res.rows.length > 0;
}

/** Gives up `holder`'s lease on `key` (a lease already taken over stays with its new holder). */
export async function releaseLease(database: Db, key: string, holder: string): Promise<void> {
  await database.executeSql('DELETE FROM job_leases WHERE key = $1 AND holder = $2', [key, holder]);
}
