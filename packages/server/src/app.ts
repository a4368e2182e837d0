/** buildApp(): the whole server (API and/or worker) on the configured engines; returns { start, stop }. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import mercurius from 'mercurius';
import { GraphQLError, specifiedRules, validate } from 'graphql';
import { mercuriusUpload } from 'mercurius-upload';
import fastifyWebsocket from '@fastify/websocket';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';
import { loadConfig, type Config, type RawConfig } from './config.js';
import { openDatabase, type Db } from './db/database.js';
import { createEventBus } from './events/event-bus.js';
import { createQueue } from './jobs/queue.js';
import { registerWorkers } from './jobs/workers.js';
import { createMailer } from './mail/mailer.js';
import { createStorage } from './storage/create-storage.js';
import type { Storage } from './storage/storage.js';
import { createTokenService } from './auth/tokens.js';
import { createHumanCheck } from './auth/human-check.js';
import { resolveAuth } from './services/resolve-auth.js';
import type { AuthInfo, Context } from './graphql/builder.js';
import { getSchema } from './graphql/schema.js';
import { AppError, toClientError } from './graphql/errors.js';
import { PARSE_OPTIONS, checkQueryLimits, isParsedDocument, isTokenLimitError, tokenLimitError } from './graphql/limits.js';
import { guardGraphqlSocket, introspectionPolicy, introspectionRefused, isGraphqlSocketRequest, mayIntrospect, requestShapeRefusal, usesIntrospection, withoutSuggestion } from './graphql/hardening.js';
import { registerRoutes } from './http/routes.js';
import { registerUploadDrain } from './http/graphql-upload.js';
import { IMAGE_MAX_BYTES } from './services/accounts.js';
import { closeHttpGracefully } from './http/graceful-close.js';
import { flushViews } from './services/view-counter.js';
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
}

export interface App {
  app: FastifyInstance;
  services: Services;
  config: Config;
  /** Starts listening (API role) and working (worker role); resolves to the base URL. */
  start(): Promise<string>;
  stop(): Promise<void>;
}

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
  if (!config.JWT_SECRET) {
    config.jwtSecret = config.DATA_DIR.startsWith('memory://') ? randomBytes(32).toString('hex') : developmentSecret(config.dataDir);
  }

  const app = Fastify({
    logger: { level: config.LOG_LEVEL },
    bodyLimit: 1024 * 1024,
    // Off unless TRUST_PROXY names the proxies in front: otherwise a client's own X-Forwarded-For would pick its address.
    trustProxy: config.TRUST_PROXY as boolean | string[], // a number is a hop count (Fastify handles it; its types omit it)
    disableRequestLogging: config.NODE_ENV === 'test',
  });

  const database: Db = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR.startsWith('memory://') ? config.DATA_DIR : path.join(config.dataDir, 'pg'),
    pgliteTemplate: opts.pgliteTemplate,
  });
  const events = await createEventBus(database, { redisUrl: config.REDIS_URL, onError: (err, what) => app.log.error({ err }, `events: ${what}`) });
  const queue = await createQueue(database, { databaseUrl: config.DATABASE_URL, maintenanceIntervalSeconds: config.JOB_MAINTENANCE_INTERVAL_SECONDS, onError: (e) => app.log.error(e, 'job queue error') });
  const storage = opts.storage ?? createStorage(config);
  const services: Services = {
    config,
    database,
    db: database.db,
    storage,
    mailer: createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, db: database.db, log: app.log }),
    queue,
    events,
    tokens: createTokenService(config.jwtSecret, config.TOKEN_TTL_SECONDS),
    humanCheck: createHumanCheck({ secret: config.TURNSTILE_SECRET, verifyUrl: config.TURNSTILE_VERIFY_URL, isDev: config.isDev }),
    log: app.log,
  };

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string; validation?: unknown }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    if (status >= 500) {
      app.log.error(err);
      return reply.code(status).send({ error: 'Internal Server Error', code: ERROR_CODES.INTERNAL, message: ERROR_TEXTS.unexpected });
    }
    const code = status === 429 ? ERROR_CODES.RATE_LIMITED : status === 401 ? ERROR_CODES.UNAUTHENTICATED : ERROR_CODES.BAD_USER_INPUT;
    const message = status === 429 ? ERROR_TEXTS.rateLimited : err.message;
    return reply.code(status).send({ error: message, code, message });
  });

  const authCache = new WeakMap<FastifyRequest, AuthInfo | null>();
  // A present but invalid or expired token answers 401, which the console turns into a logout (accounts §4).
  app.addHook('preHandler', async (req, reply) => {
    if (!req.url.startsWith('/query')) return;
    const header = req.headers.authorization;
    if (!header) return void authCache.set(req, null);
    const auth = await resolveAuth(services, header);
    if (!auth) {
      return reply.code(401).send({ errors: [{ message: ERROR_TEXTS.authenticationFailed, extensions: { code: ERROR_CODES.UNAUTHENTICATED } }] });
    }
    authCache.set(req, auth);
  });

  // At the root (Mercurius would register it in its own scope), so a shutdown can close subscription sockets with 1001.
  await app.register(fastifyWebsocket, { options: { maxPayload: 1024 * 1024 } });
  // Before mercurius-upload: its onSend waits for the whole body, so files nobody read are drained first (refusals answer).
  await registerUploadDrain(app);
  // One byte over the image limit: a larger file reaches the resolvers' size check and is refused, never cut short.
  await app.register(mercuriusUpload, { maxFileSize: IMAGE_MAX_BYTES + 1, maxFiles: 2 });
  // Mercurius parses WebSocket documents without our token limit: guard those sockets before it reads a message.
  app.websocketServer.on('connection', (socket, req) => {
    if (isGraphqlSocketRequest(req)) guardGraphqlSocket(socket);
  });
  const production = config.NODE_ENV === 'production';
  const introspection = introspectionPolicy(config.GRAPHQL_INTROSPECTION, production);
  const clientError = (e: unknown) => {
    const err = toClientError(e, (orig) => app.log.error(orig));
    return production && / Did you mean /.test(err.message) ? new GraphQLError(withoutSuggestion(err.message), { path: err.path, extensions: err.extensions }) : err;
  };
  await app.register(mercurius, {
    schema: getSchema(),
    path: '/query',
    graphiql: false,
    jit: 1,
    // Our limits run in preValidation below, before graphql's own rules; the token limit while parsing.
    graphql: { parseOptions: PARSE_OPTIONS },
    context: (req): Context => ({ services, auth: authCache.get(req) ?? null, ip: req.ip, origin: req.headers.origin }),
    subscription: {
      // The token travels in the connection parameters: { authorization: 'Bearer …' }.
      onConnect: async ({ payload }) => {
        const header = (payload as Record<string, unknown> | undefined)?.authorization ?? (payload as Record<string, unknown> | undefined)?.Authorization;
        if (!header) return { auth: null };
        const auth = await resolveAuth(services, String(header));
        return auth ? { auth } : false;
      },
      context: (_conn, req): Context => ({ services, auth: null, ip: req.ip, origin: req.headers.origin }),
    },
    errorFormatter: (execution) => {
      // Fastify's refusals of the request itself (body over the 1 MB limit, malformed JSON, unsupported type) keep their status.
      const transport = (execution.errors ?? []).map((e) => e.originalError as (Error & { statusCode?: number; code?: string }) | undefined).find((o) => o?.code?.startsWith('FST_') && o.statusCode && o.statusCode < 500);
      if (transport) {
        const message = transport.statusCode === 413 ? 'The request is too large.' : transport.message;
        return { statusCode: transport.statusCode!, response: { data: null, errors: [toClientError(new AppError(ERROR_CODES.BAD_USER_INPUT, message))] } };
      }
      let requestError = false;
      const flat = (execution.errors ?? []).flatMap((e) => {
        // Mercurius wraps validation failures (our limits included) in one error holding the list.
        const inner = (e.originalError as { errors?: unknown } | undefined)?.errors;
        if (Array.isArray(inner)) {
          requestError = true;
          return inner as GraphQLError[];
        }
        if (e.message.startsWith('Syntax Error')) requestError = true;
        return [e];
      });
      let status = 400;
      const errors = flat.map((e) => {
        if (isTokenLimitError(e.message)) return tokenLimitError();
        const shape = requestShapeRefusal(e);
        if (!shape) return clientError(e);
        requestError = true;
        const { status: s, ...extensions } = shape.extensions as { status?: number };
        if (s) status = s;
        return new GraphQLError(shape.message, { extensions });
      });
      return { statusCode: requestError && !execution.data ? status : 200, response: { data: execution.data ?? null, errors } };
    },
  });
  // Subscription context: mercurius merges onConnect's result into the context.
  // Mercurius does not validate subscription documents: apply the same rules (and our limits) as on HTTP.
  app.graphql.addHook('preSubscriptionExecution', async (schema, document, context) => {
    const c = context as unknown as Context & { auth?: AuthInfo | null };
    c.auth ??= null;
    const limitErrors = checkQueryLimits(schema, document);
    if (limitErrors.length > 0) throw clientError(limitErrors[0]);
    const errors = validate(schema, document, specifiedRules);
    if (errors.length > 0) throw clientError(errors[0]);
    if (!mayIntrospect(introspection, c.auth) && usesIntrospection(schema, document)) throw introspectionRefused();
  });
  // Mercurius runs a query string that is JSON as a ready-made AST, past the parser's token limit: refuse it.
  // Then our limits, before graphql's own rules (thrown like Mercurius' validation failure: a 400 listing the errors).
  app.graphql.addHook('preValidation', async (schema, document) => {
    if (!isParsedDocument(document)) throw new AppError(ERROR_CODES.BAD_USER_INPUT, 'The query is not a GraphQL document.');
    const errors = checkQueryLimits(schema, document);
    if (errors.length > 0) throw Object.assign(new Error(errors[0]!.message), { errors });
  });
  // Every request (cached documents skip validation): introspection only for whom the setting allows.
  if (introspection !== 'open') {
    app.graphql.addHook('preExecution', async (schema, document, context) => {
      if (!mayIntrospect(introspection, (context as unknown as Context).auth) && usesIntrospection(schema, document)) throw introspectionRefused();
    });
  }

  await registerRoutes(app, services);

  const role = config.ROLE;
  let started = false;
  return {
    app,
    services,
    config,
    async start() {
      if (role === 'all' || role === 'worker') await registerWorkers(services);
      const url = await app.listen({ host: config.HOST, port: config.PORT });
      started = true;
      return url;
    },
    async stop() {
      // Bounded: HTTP drains first, then a worker's running job gets what is left (pg-boss fails it back to the queue at the end).
      const deadline = Date.now() + (config.SHUTDOWN_TIMEOUT_SECONDS ?? (config.NODE_ENV === 'test' ? 5 : 25)) * 1000;
      if (started) await closeHttpGracefully(app, Math.max(1000, deadline - Date.now()));
      await queue.stop({ graceful: true, timeout: Math.max(1000, deadline - Date.now()) }).catch(() => undefined);
      await flushViews(services).catch((err) => app.log.warn({ err }, 'could not write the last tour views'));
      await events.close().catch(() => undefined);
      await database.close();
    },
  };
}
