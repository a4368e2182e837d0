/**
 * Leases: "at most one at a time" across processes (processing attempts, webhook slots per company), and the crash
 * recovery of long jobs (see JobLease). The queue (jobs/queue.ts) runs a leased job through runLeased.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Db } from '../db/database.js';

/**
 * Crash recovery for long jobs (media processing), in two parts renewed together every `heartbeatSeconds`:
 * - Liveness: pg-boss fails an active job by timeout when `started_on + expire_in` has passed. The heartbeat keeps
 *   that moment `seconds` ahead by moving the row's `started_on` back (never past the real start, so the whole
 *   `maxSeconds` allowance still holds). `expire_in` is never touched: pg-boss copies it into the retry and times the
 *   retry's handler out by it, so a shortened value there failed a healthy retry.
 * - Exclusion: `key(data)` names the work (a tour's processing); one attempt holds the key in `job_leases` while it
 *   runs, and another attempt of the same work waits until it is released or has run out. A holder that finds its job
 *   or its key taken over (it stalled past the lease) is aborted through its signal, and so is every leased job when
 *   the queue stops (SIGTERM): it is failed back to pg-boss for a retry at once instead of dying with the process.
 */
export interface JobLease<T> {
  seconds: number;
  heartbeatSeconds: number;
  maxSeconds: number;
  key: (data: T) => string;
}

/** Why a leased job's signal aborted: the worker stops, or the job or its key went to another attempt. */
export class JobStoppedError extends Error {}

/** A leased job as runLeased sees it: the work's key, and how the queue keeps this attempt its job (jobs/queue.ts). */
interface LeasedJob {
  key: string;
  /**
   * Moves this attempt's timeout `seconds` ahead (the liveness part above); false when the job is no longer this
   * attempt's. Only the queue module touches pg-boss's tables, so it is the queue that does this.
   */
  keepActive: (seconds: number) => Promise<boolean>;
}

/** Runs one leased job: heartbeat, wait for its key, the handler, release (see JobLease). */
export async function runLeased(
  database: Db,
  job: LeasedJob,
  lease: Omit<JobLease<never>, 'key'>,
  running: Set<AbortController>,
  onError: (e: Error) => void,
  run: (signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const holder = randomUUID();
  const controller = new AbortController();
  const abort = (why: string) => controller.abort(new JobStoppedError(why));
  running.add(controller);
  let holding = false;
  const tick = async () => {
    if (controller.signal.aborted) return;
    if (!(await job.keepActive(lease.seconds))) return abort('the job was given to another attempt');
    if (holding && !(await takeLease(database, job.key, holder, lease.seconds)))
      abort('another attempt took over this work');
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
