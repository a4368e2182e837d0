/**
 * PostgreSQL's LISTEN connection, kept alive: one client per process that LISTENs on every channel asked for, and
 * comes back by itself. A database restart, a failover, a proxy's idle cut or `pg_terminate_backend` ends the
 * connection (the client's `error` / `end`); a connection that stops answering without ending (a silent network cut)
 * is found by a `SELECT 1` every `checkMs`. Either way the channel is down at once: `state.up` is false, with the
 * reason, and every `onChange` listener is told; it connects again with exponential backoff (from RETRY_MIN_MS up to
 * `retryMaxMs`, with jitter) and is up again only once every channel is LISTENed on, when the listeners are told
 * again. Notices sent while it was down are lost (NOTIFY keeps nothing for absent listeners): whoever keeps what
 * notices invalidate drops it on both changes and keeps nothing while down (docs/operations.md, Database notices).
 *
 * Written here rather than taken from `pg-listen` (last published 2020; gives up reconnecting after `retryTimeout`):
 * it is a small loop around the `pg` client the app already uses (docs/decisions.md).
 */
import pg from 'pg';

/** What the process knows of its notices: whether it hears them now, and if not, why. */
export interface NoticeChannel {
  readonly up: boolean;
  /** Why notices cannot be received now (null while up). */
  readonly reason: string | null;
  /** How many times the channel came back after being lost. */
  readonly reconnects: number;
  /** Called with false when notices stop, with true when they flow again; returns the unsubscribe function. */
  onChange(fn: (up: boolean) => void): () => void;
}

/** The embedded database's notices never leave the process: nothing to lose. */
export const ALWAYS_LISTENING: NoticeChannel = {
  up: true,
  reason: null,
  reconnects: 0,
  onChange: () => () => undefined,
};

export interface NoticeListenerOptions {
  url: string;
  /** Longest wait between two attempts to connect again. */
  retryMaxMs: number;
  /** How often the idle connection is asked `SELECT 1` (and how long it may take to answer). */
  checkMs: number;
  /** Where each loss and each failed attempt is reported, with the driver's error (the `reason` names none). */
  report?: ((err: unknown, what: string) => void) | undefined;
}

const RETRY_MIN_MS = 250;
/** What the connection is called in pg_stat_activity (an operator, or a test, finds the listening backend by it). */
export const NOTICE_APPLICATION_NAME = 'roomwalk-notices';

/** Closes the client's socket at once (pg's own end() waits for the server, which a cut connection never answers). */
const destroySocket = (c: pg.Client): void =>
  (c as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();

export class NoticeListener implements NoticeChannel {
  readonly #opts: NoticeListenerOptions;
  readonly #handlers = new Map<string, Set<(payload: string) => void>>();
  readonly #watchers = new Set<(up: boolean) => void>();
  #client: pg.Client | null = null;
  #up = false;
  #reason: string | null = 'Not connected yet.';
  #reconnects = 0;
  #attempt = 0;
  #retry: NodeJS.Timeout | null = null;
  #check: NodeJS.Timeout | null = null;
  #closed = false;
  #everUp = false;

  constructor(opts: NoticeListenerOptions) {
    this.#opts = opts;
  }

  get up(): boolean {
    return this.#up;
  }
  get reason(): string | null {
    return this.#reason;
  }
  get reconnects(): number {
    return this.#reconnects;
  }

  onChange(fn: (up: boolean) => void): () => void {
    this.#watchers.add(fn);
    return () => void this.#watchers.delete(fn);
  }

  /** The first connection: throws when it cannot be made (the process does not start without its notices). */
  async start(): Promise<void> {
    await this.#connect();
  }

  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.#handlers.get(channel);
    if (!set) {
      set = new Set();
      this.#handlers.set(channel, set);
      if (this.#up && this.#client) await this.#client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    }
    set.add(onPayload);
    return async () => void set.delete(onPayload);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    if (this.#check) clearInterval(this.#check);
    const c = this.#client;
    this.#client = null;
    if (!c) return;
    // A connection that no longer answers would never finish ending: it gets a second, then its socket is closed.
    let timer: NodeJS.Timeout | undefined;
    const ended = c.end().catch(() => undefined);
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => resolve(destroySocket(c)), 1000);
    });
    await Promise.race([ended, late]).finally(() => clearTimeout(timer));
  }

  async #connect(): Promise<void> {
    const c = new pg.Client({
      connectionString: this.#opts.url,
      application_name: NOTICE_APPLICATION_NAME,
      keepAlive: true,
    });
    // Until it listens, a failure rejects the steps below; afterwards it is a lost connection.
    let listening = false;
    c.on('error', (err) => {
      if (listening) this.#lost(c, 'The notice connection failed.', err);
    });
    c.on('end', () => {
      if (listening) this.#lost(c, 'The notice connection was closed by the database or the network.');
    });
    c.on('notification', (n) => {
      for (const h of this.#handlers.get(n.channel) ?? []) h(n.payload ?? '');
    });
    this.#client = c;
    try {
      await c.connect();
      for (const channel of this.#handlers.keys()) await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      if (this.#client === c) this.#client = null;
      await c.end().catch(() => undefined);
      throw err;
    }
    if (this.#closed || this.#client !== c) return void (await c.end().catch(() => undefined));
    listening = true;
    this.#attempt = 0;
    this.#reason = null;
    this.#up = true;
    if (this.#everUp) this.#reconnects++;
    this.#everUp = true;
    this.#watch(c);
    this.#tell(true);
  }

  /** Asks the idle connection to answer every checkMs; no answer within checkMs counts as lost. */
  #watch(c: pg.Client): void {
    if (this.#check) clearInterval(this.#check);
    const ms = this.#opts.checkMs;
    this.#check = setInterval(() => {
      if (this.#client !== c) return;
      let timer: NodeJS.Timeout | undefined;
      const silent = new Promise<never>((_r, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      });
      Promise.race([c.query('SELECT 1'), silent])
        .catch((err: Error) => {
          this.#lost(c, 'The notice connection stopped answering.', err);
          // A connection that no longer answers is closed here (its end is then ignored: it is not the client now).
          destroySocket(c);
        })
        .finally(() => clearTimeout(timer));
    }, ms);
    this.#check.unref();
  }

  #lost(c: pg.Client, reason: string, err?: unknown): void {
    if (this.#closed || this.#client !== c) return;
    this.#opts.report?.(err, reason);
    this.#client = null;
    c.removeAllListeners('notification');
    void c.end().catch(() => undefined);
    if (this.#check) clearInterval(this.#check);
    this.#check = null;
    this.#reason = reason;
    const wasUp = this.#up;
    this.#up = false;
    if (wasUp) this.#tell(false);
    this.#again();
  }

  #again(): void {
    if (this.#closed || this.#retry) return;
    const ceiling = Math.min(this.#opts.retryMaxMs, RETRY_MIN_MS * 2 ** this.#attempt);
    this.#attempt++;
    const wait = ceiling / 2 + Math.random() * (ceiling / 2);
    this.#retry = setTimeout(() => {
      this.#retry = null;
      if (this.#closed) return;
      this.#connect().catch((err: unknown) => {
        this.#reason = 'The notice connection cannot be made again yet.';
        this.#opts.report?.(err, this.#reason);
        this.#again();
      });
    }, wait);
    this.#retry.unref();
  }

  #tell(up: boolean): void {
    for (const fn of this.#watchers) {
      try {
        fn(up);
      } catch {
        // One watcher's failure must not keep the others from hearing.
      }
    }
  }
}
