/** buildApp(): the whole server (API and/or worker) on the configured engines; returns { start, stop }. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { loadConfig, type Config, type RawConfig } from './config.js';
import { openDatabase, type Db } from './db/database.js';
import { createEventBus } from './events/event-bus.js';
import { createQueue } from './jobs/queue.js';
import { registerWorkers } from './jobs/workers.js';
import { createMailer } from './mail/mailer.js';
import { createStorage } from './storage/create-storage.js';
import type { Storage } from './storage/storage.js';
import { createTokenService } from './auth/tokens.js';
import { serverNow } from './core/clock.js';
import { createHumanCheck } from './auth/human-check.js';
import { closeHttpGracefully } from './http/graceful-close.js';
import { registerHealthRoutes } from './http/health.js';
import { listenFailure } from './http/listen-failure.js';
import { loggerOptions } from './http/logging.js';
import { instrumentQueue, registerMetrics } from './http/metrics.js';
import { openAdminChannel, type AdminChannel } from './http/admin-socket.js';
import { refuseFrameworkError } from './http/refuse.js';
import { flushViews, ViewCounter } from './services/view-counter.js';
import { settleVisits } from './services/reports/analytics.js';
import { VisitWriter } from './services/reports/visit-writer.js';
import { createSignalingTokens } from './services/live/signaling-token.js';
import { assertProductionMediaBinaries } from './media/ffmpeg-binaries.js';
import type { Services } from './services/services.js';

export interface BuildAppOptions {
  /** Settings; defaults to the process environment. */
  config?: Config;
  /** Overrides on top of the environment (tests). */
  overrides?: Partial<RawConfig>;
  /** Replace parts (tests): e.g. a storage adapter. */
  storage?: Storage;
  /** Tests: start the embedded database from a migrated template (see test/helpers/test-app.ts). */
  pgliteTemplate?: Blob;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: Writable;
}

export interface App {
  app: FastifyInstance;
  services: Services;
  config: Config;
  /** Starts listening (API role) and working (worker role); resolves to the base URL. */
  start(): Promise<string>;
  stop(): Promise<void>;
}

export const PRODUCTION_NEEDS_SMTP =
  'Invalid settings:\n  SMTP_URL: required in production (activation, password reset and invite mails must be delivered; see docs/operations.md, Mail)';

/** A development secret kept in the data folder, so restarts keep sessions and nobody ships a default. */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'dev-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('hex');
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

export async function buildApp(opts: BuildAppOptions = {}): Promise<App> {
  const config = opts.config ?? loadConfig(process.env, opts.overrides);
  // Nodes that decode uploads refuse the 2018 npm fallback ffmpeg in production (media/ffmpeg-binaries.ts).
  if (config.NODE_ENV === 'production' && config.ROLE !== 'api') assertProductionMediaBinaries();
  // Without SMTP mail would go to the development outbox, which logs activation, reset and invite links.
  if (config.NODE_ENV === 'production' && !config.SMTP_URL) throw new Error(PRODUCTION_NEEDS_SMTP);
  if (!config.JWT_SECRET) {
    config.jwtSecret = config.DATA_DIR.startsWith('memory://')
      ? randomBytes(32).toString('hex')
      : developmentSecret(config.dataDir);
  }

  const app = Fastify({
    logger: loggerOptions(config, opts.logStream),
    bodyLimit: 1024 * 1024,
    // Off unless TRUST_PROXY names the proxies in front: otherwise a client's own X-Forwarded-For would pick its
    // address.
    trustProxy: config.TRUST_PROXY as boolean | string[], // a number is a hop count (Fastify handles it; its types omit it)
    logController: new LogController({ disableRequestLogging: config.NODE_ENV === 'test' }),
  });

  // The embedded database on disk serves one process: take its folder's admin socket first (refused while another
  // process holds it), so `npm run admin` asks this server instead of opening the folder itself (http/admin-socket.ts).
  const embeddedOnDisk = !config.DATABASE_URL && !config.DATA_DIR.startsWith('memory://');
  const adminChannel: AdminChannel | undefined = embeddedOnDisk ? await openAdminChannel(config.dataDir) : undefined;
  let database: Db;
  try {
    database = await openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR.startsWith('memory://') ? config.DATA_DIR : path.join(config.dataDir, 'pg'),
      pgliteTemplate: opts.pgliteTemplate,
      notices: {
        url: config.NOTICE_DATABASE_URL,
        retryMaxMs: config.NOTICE_RECONNECT_MAX_SECONDS * 1000,
        checkMs: config.NOTICE_CHECK_SECONDS * 1000,
        report: (err, what) => app.log.warn({ err }, `database notices: ${what}`),
      },
    });
  } catch (err) {
    await adminChannel?.close();
    throw err;
  }
  const events = await createEventBus(database, {
    redisUrl: config.REDIS_URL,
    onError: (err, what) => app.log.error({ err }, `events: ${what}`),
  });
  const queue = instrumentQueue(
    await createQueue(database, {
      databaseUrl: config.DATABASE_URL,
      maintenanceIntervalSeconds: config.JOB_MAINTENANCE_INTERVAL_SECONDS,
      onError: (e) => app.log.error(e, 'job queue error'),
    }),
  );
  const storage = opts.storage ?? createStorage(config);
  const services: Services = {
    config,
    database,
    db: database.db,
    storage,
    mailer: createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, db: database.db, log: app.log }),
    queue,
    events,
    tokens: createTokenService(config.jwtSecret, config.TOKEN_TTL_SECONDS, () => serverNow(services).getTime()),
    humanCheck: createHumanCheck({
      secret: config.TURNSTILE_SECRET,
      verifyUrl: config.TURNSTILE_VERIFY_URL,
      isDev: config.isDev,
    }),
    log: app.log,
    clockOffsetMs: 0,
    rateLimiters: new Map(),
    apiKeyLastUsed: new Map(),
    visitWriter: new VisitWriter(database.db),
    viewCounter: new ViewCounter(database.db, app.log),
    signalingTokens: createSignalingTokens(config.jwtSecret, () => serverNow(services).getTime()),
    mediaSignatures: new Map(),
  };
  adminChannel?.serve(services);

  app.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    if (status >= 500) app.log.error(err);
    return refuseFrameworkError(reply, status, err.message);
  });

  // A worker serves health checks only: it never loads the GraphQL schema or the API's routes
  // (test/worker-role.test.ts).
  await registerMetrics(app, services);
  if (config.ROLE === 'worker') await registerHealthRoutes(app, services);
  else await (await import('./api.js')).registerApi(app, services);

  const role = config.ROLE;
  let started = false;
  return {
    app,
    services,
    config,
    async start() {
      if (role === 'all' || role === 'worker') await registerWorkers(services);
      const url = await app.listen({ host: config.HOST, port: config.PORT }).catch((err: unknown) => {
        throw listenFailure(err, config.HOST, config.PORT);
      });
      started = true;
      return url;
    },
    async stop() {
      // Bounded: HTTP drains first, then a worker's running job gets what is left (pg-boss fails it back to the queue
      // at the end).
      const deadline = Date.now() + (config.SHUTDOWN_TIMEOUT_SECONDS ?? (config.NODE_ENV === 'test' ? 5 : 25)) * 1000;
      if (started) await closeHttpGracefully(app, Math.max(1000, deadline - Date.now()));
      await queue.stop({ graceful: true, timeout: Math.max(1000, deadline - Date.now()) }).catch(() => undefined);
      await settleVisits(services).catch((err) => app.log.warn({ err }, 'could not write the last visits'));
      await flushViews(services).catch((err) => app.log.warn({ err }, 'could not write the last tour views'));
      await events.close().catch(() => undefined);
      await database.close();
      // Last: the folder is free only once the database is closed.
      await adminChannel?.close();
    },
  };
}
