/**
 * Background jobs on pg-boss over the same database (PGlite through its executeSql adapter, or PostgreSQL). The one
 * module that speaks to pg-boss: everything else goes through JobQueue (test/architecture.test.ts checks it). A job's
 * queue name, payload, options, enqueue and register live together in its job module (jobs/*-job.ts, jobs/workers.ts).
 */
import { CompiledQuery, type Transaction } from 'kysely';
import PgBoss from 'pg-boss';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/types.js';
import { type JobLease, JobStoppedError, runLeased } from './job-lease.js';

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

/** Retries and expiry of a queue's jobs: a queue's defaults, or one job's own. */
interface QueueOptions {
  retryLimit?: number;
  /** Seconds before the first retry; doubled each time with retryBackoff. */
  retryDelay?: number;
  retryBackoff?: boolean;
  /** An active job running longer is presumed dead and retried. */
  expireInSeconds?: number;
  /** Where a job goes once its retries are spent. */
  deadLetter?: string;
}

interface JobOptions extends QueueOptions {
  /** Higher first; equal priorities in the order sent. */
  priority?: number;
  /** At most one job with this key not yet finished. */
  singletonKey?: string;
  startAfter?: Date | number;
}

interface WorkOptions<T> {
  batchSize?: number;
  pollingIntervalSeconds?: number;
  lease?: JobLease<T>;
  /** Workers of this queue on one node (defineJob's register starts that many). */
  concurrency?: number;
}

export interface JobQueue {
  /** Creates `name` with its defaults (once per process; later calls and an existing queue change nothing). */
  createQueue(name: string, options?: QueueOptions): Promise<void>;
  send<T extends object>(name: string, data: T, options?: JobOptions): Promise<string | null>;
  /** Sends on the caller's transaction: the job exists exactly when the transaction's rows do. */
  sendInTransaction<T extends object>(
    trx: Transaction<Database>,
    name: string,
    data: T,
    options?: JobOptions,
  ): Promise<string | null>;
  /** Sends `data` to `name` on a cron schedule (pg-boss runs a schedule once across all nodes). */
  schedule(name: string, cron: string, data?: object): Promise<void>;
  /** Registers a worker; only called on nodes with the worker role. */
  work<T extends object>(name: string, handler: JobHandler<T>, options?: WorkOptions<T>): Promise<void>;
  /** Whether a job of `name` with this singleton key is queued or running. */
  pending(name: string, singletonKey: string): Promise<boolean>;
  /** When the newest job of `name` whose data has `field` = `value` was queued (null: none). */
  queuedAt(name: string, field: string, value: string): Promise<Date | null>;
  /** Jobs queued, waiting for a retry or running, by queue and state (for /metrics). */
  depth(): Promise<Array<{ queue: string; state: string; count: number }>>;
  stop(opts?: { graceful?: boolean; timeout?: number }): Promise<void>;
}

/** What enqueueing and registering need of the Services container (named here: services.ts imports this module). */
interface JobHost {
  queue: JobQueue;
  config: Config;
}

/** What a job module declares besides its queue name (see defineJob). */
interface JobSpec<T extends object> {
  /** Retries and expiry, the queue's defaults and every job's own; a function when they come from settings. */
  options?: JobOptions | ((config: Config) => JobOptions);
  /** Options that depend on the job's data (a singleton key, a kind's own expiry). */
  perJob?: (data: T) => JobOptions;
  /** How the workers take it (batch, polling, lease). */
  work?: WorkOptions<T> | ((config: Config) => WorkOptions<T>);
  /** The queue where jobs whose retries are spent go (created first). */
  deadLetter?: Pick<JobDefinition<object>, 'queue' | 'create'>;
}

/** One job: its queue name, payload type `T`, options, enqueue and register together (jobs/workers.ts lists them). */
export interface JobDefinition<T extends object> {
  readonly queue: string;
  /**
   * Creates the queue with its options; done by enqueue and register, and needed before a transaction that enqueues.
   */
  create(services: JobHost): Promise<void>;
  /** Queues `data`, on the caller's transaction when given one (create the queue before opening it). */
  enqueue(
    services: JobHost,
    data: T,
    trx?: Transaction<Database>,
    extra?: Pick<JobOptions, 'priority' | 'startAfter'>,
  ): Promise<string | null>;
  /** Runs `handle` for each job on this worker node. */
  register(services: JobHost, handle: (data: T, signal: AbortSignal) => Promise<unknown>): Promise<void>;
}

export function defineJob<T extends object>(queue: string, spec: JobSpec<T> = {}): JobDefinition<T> {
  const options = (services: JobHost) =>
    typeof spec.options === 'function' ? spec.options(services.config) : (spec.options ?? {});
  const definition: JobDefinition<T> = {
    queue,
    async create(services) {
      await spec.deadLetter?.create(services);
      await services.queue.createQueue(queue, {
        ...DEFAULT_QUEUE,
        ...options(services),
        ...(spec.deadLetter ? { deadLetter: spec.deadLetter.queue } : {}),
      });
    },
    async enqueue(services, data, trx, extra) {
      if (!trx) await definition.create(services);
      const o: JobOptions = {
        ...options(services),
        ...(spec.deadLetter ? { deadLetter: spec.deadLetter.queue } : {}),
        ...spec.perJob?.(data),
        ...extra,
      };
      return trx ? services.queue.sendInTransaction(trx, queue, data, o) : services.queue.send(queue, data, o);
    },
    async register(services, handle) {
      await definition.create(services);
      const work = typeof spec.work === 'function' ? spec.work(services.config) : spec.work;
      for (let i = 0; i < (work?.concurrency ?? 1); i++)
        await services.queue.work<T>(queue, (job) => handle(job.data, job.signal).then(() => undefined), work);
    },
  };
  return definition;
}

/** How often pg-boss expires jobs whose lease ran out (its default is 120 s). */
const DEFAULT_MAINTENANCE_INTERVAL_SECONDS = 10;

/** A queue created by its first use, without defaults of its own. */
const DEFAULT_QUEUE: QueueOptions = { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 * 30 };

/** pg-boss's `db` option: its insert runs on the caller's transaction. */
const onTransaction = (trx: Transaction<Database>) => ({
  executeSql: async (text: string, values?: unknown[]) => ({
    rows: (await trx.executeQuery(CompiledQuery.raw(text, values ?? []))).rows as unknown[],
  }),
});

export async function createQueue(
  database: Db,
  opts: {
    databaseUrl?: string | undefined;
    onError: (e: Error) => void;
    maintenanceIntervalSeconds?: number | undefined;
  },
): Promise<JobQueue> {
  const maintenanceIntervalSeconds = opts.maintenanceIntervalSeconds ?? DEFAULT_MAINTENANCE_INTERVAL_SECONDS;
  const boss = opts.databaseUrl
    ? new PgBoss({ connectionString: opts.databaseUrl, schema: 'pgboss', maintenanceIntervalSeconds })
    : new PgBoss({
        db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
        schema: 'pgboss',
        maintenanceIntervalSeconds,
      });
  boss.on('error', opts.onError);
  await boss.start();
  const created = new Map<string, Promise<void>>();
  const running = new Set<AbortController>();
  const stopping = new AbortController();

  function ensureQueue(name: string, options: QueueOptions = DEFAULT_QUEUE): Promise<void> {
    let done = created.get(name);
    if (!done) {
      done = createWithRetry(boss, { name, ...options });
      created.set(name, done);
      done.catch(() => created.delete(name));
    }
    return done;
  }

  return {
    createQueue: ensureQueue,
    async send(name, data, options) {
      await ensureQueue(name);
      return boss.send(name, data, options ?? {});
    },
    async sendInTransaction(trx, name, data, options) {
      // The queue exists already (JobDefinition.create): creating it now would wait for the connection trx holds.
      return boss.send(name, data, { ...options, db: onTransaction(trx) });
    },
    async schedule(name, cron, data = {}) {
      await ensureQueue(name);
      await boss.schedule(name, cron, data);
    },
    async work(name, handler, options) {
      await ensureQueue(name);
      const lease = options?.lease;
      await boss.work(
        name,
        {
          batchSize: options?.batchSize ?? 1,
          pollingIntervalSeconds: options?.pollingIntervalSeconds ?? 0.5,
          includeMetadata: true,
        },
        async (jobs) => {
          for (const job of jobs) {
            const data = job.data as Parameters<typeof handler>[0]['data'];
            if (!lease) {
              await handler({ id: job.id, data, signal: stopping.signal });
              continue;
            }
            const leased = {
              key: lease.key(data),
              // The lease's liveness (jobs/job-lease.ts): pg-boss times an active job out at started_on + expire_in,
              // so started_on moves back to keep that `seconds` ahead, never past the real start. Only this attempt's
              // row: a retry keeps the job id, and its retry_count is one more.
              keepActive: async (seconds: number) =>
                (
                  await database.executeSql(
                    `UPDATE pgboss.job SET started_on = LEAST(now() + make_interval(secs => $3) - expire_in, $4::timestamptz)
                      WHERE name = $1 AND id = $2 AND state = 'active' AND retry_count = $5 RETURNING id`,
                    [name, job.id, seconds, job.startedOn, job.retryCount],
                  )
                ).rows.length > 0,
            };
            await runLeased(database, leased, lease, running, opts.onError, (signal) =>
              handler({ id: job.id, data, signal }),
            );
          }
        },
      );
    },
    async pending(name, singletonKey) {
      const res = await database.executeSql(
        "SELECT 1 FROM pgboss.job WHERE name = $1 AND singleton_key = $2 AND state IN ('created', 'retry', 'active') LIMIT 1",
        [name, singletonKey],
      );
      return res.rows.length > 0;
    },
    async queuedAt(name, field, value) {
      const res = await database.executeSql(
        'SELECT max(created_on) AS queued FROM pgboss.job WHERE name = $1 AND data->>$2 = $3',
        [name, field, value],
      );
      const queued = (res.rows[0] as { queued: Date | string | null } | undefined)?.queued;
      return queued ? new Date(queued) : null;
    },
    async depth() {
      const res = await database.executeSql(
        "SELECT name AS queue, state, count(*)::int AS count FROM pgboss.job WHERE state IN ('created', 'retry', 'active') GROUP BY name, state",
      );
      return res.rows as Array<{ queue: string; state: string; count: number }>;
    },
    async stop(o) {
      // Long jobs stop now and go back to the queue (their work folders removed); short ones get the grace period.
      for (const controller of running) controller.abort(new JobStoppedError('the worker is stopping'));
      stopping.abort(new JobStoppedError('the worker is stopping'));
      await boss.stop({ graceful: o?.graceful ?? true, timeout: o?.timeout ?? 10_000, wait: true });
    },
  };
}

/**
 * pg-boss 10 gives each queue a partition created by DDL that deadlocks when two processes create queues at the same
 * time (several workers starting together on a fresh database): PostgreSQL aborts one of them, which simply tries
 * again.
 */
async function createWithRetry(boss: PgBoss, queue: PgBoss.Queue): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await boss.createQueue(queue.name, queue);
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt >= 5) throw err;
    }
  }
}
