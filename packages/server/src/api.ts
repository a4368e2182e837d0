/** The API role's HTTP surface: GraphQL on /query (HTTP and graphql-ws), its hardening, and every plain route. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';
import mercurius from 'mercurius';
import { specifiedRules, validate } from 'graphql';
import { mercuriusUpload } from 'mercurius-upload';
import fastifyWebsocket from '@fastify/websocket';
import { resolveAuth } from './services/resolve-auth.js';
import { rateLimitWait } from './auth/rate-limit.js';
import { refuseGraphQL } from './http/refuse.js';
import { capabilitiesOf } from './http/capabilities.js';
import { apiKeyScopeRefusal, fieldOutsideApiKeyScope } from './graphql/api-key-scope.js';
import type { AuthInfo, Context } from './graphql/builder.js';
import { getSchema } from './graphql/schema.js';
import { AppError, formatErrors, toClientError } from './graphql/errors.js';
import { PARSE_OPTIONS, checkQueryLimits, isParsedDocument, limitsFor } from './graphql/limits.js';
import {
  guardGraphqlSocket,
  introspectionPolicy,
  introspectionRefused,
  type IntrospectionPolicy,
  isGraphqlSocketRequest,
  mayIntrospect,
  usesIntrospection,
} from './graphql/hardening.js';
import { registerRoutes } from './http/routes.js';
import { registerDevHostCheck } from './http/dev-host-check.js';
import { registerUploadDrain } from './http/graphql-upload.js';
import { IMAGE_MAX_BYTES } from './services/profile.js';
import type { Services } from './services/services.js';

export async function registerApi(app: FastifyInstance, services: Services): Promise<void> {
  const authCache = new WeakMap<FastifyRequest, AuthInfo | null>();
  // First: hooks apply to the routes registered after them (GraphQL included).
  await registerDevHostCheck(app, services);
  authenticateQueries(app, services, authCache);
  const production = services.config.NODE_ENV === 'production';
  const introspection = introspectionPolicy(services.config.GRAPHQL_INTROSPECTION, production);
  await registerGraphql(app, services, authCache, production);
  guardSubscriptions(app, services, introspection, production);
  guardRequests(app, introspection);
  await registerRoutes(app, services);
}

/**
 * Who asks on /query, kept for the GraphQL context: a present but invalid or expired token answers 401, which the
 * console turns into a logout; anonymous documents and API keys spend their rate limits first.
 */
function authenticateQueries(
  app: FastifyInstance,
  services: Services,
  authCache: WeakMap<FastifyRequest, AuthInfo | null>,
): void {
  app.addHook('preHandler', async (req, reply) => {
    if (!req.url.startsWith('/query')) return;
    const header = req.headers.authorization;
    if (!header) {
      // Anonymous documents are limited per address before anything parses them (auth/rate-limit.ts); a WebSocket
      // upgrade carries none (its documents are counted one by one, in preSubscriptionParsing below).
      authCache.set(req, null);
      if (req.headers.upgrade) return;
      const wait = await rateLimitWait(services, 'anonymousQuery', req.ip);
      return wait === null ? undefined : rateLimitedReply(reply, wait);
    }
    let auth: AuthInfo | null;
    try {
      auth = await resolveAuth(services, header, { allowApiKey: true });
    } catch (err) {
      // An API key whose company's plan no longer includes the API (PLAN_REQUIRED).
      if (!(err instanceof AppError)) throw err;
      return refuseGraphQL(reply, err.code, err.message);
    }
    if (!auth) {
      return refuseGraphQL(reply, ERROR_CODES.UNAUTHENTICATED, ERROR_TEXTS.authenticationFailed);
    }
    if (auth.apiKeyId) {
      const wait = await rateLimitWait(services, 'apiKey', auth.apiKeyId);
      if (wait !== null) return rateLimitedReply(reply, wait);
    }
    authCache.set(req, auth);
  });
}

/** GraphQL on /query over HTTP and graphql-ws (with uploads), its context from the caller, its errors masked. */
async function registerGraphql(
  app: FastifyInstance,
  services: Services,
  authCache: WeakMap<FastifyRequest, AuthInfo | null>,
  production: boolean,
): Promise<void> {
  // At the root (Mercurius would register it in its own scope), so a shutdown can close subscription sockets with 1001.
  await app.register(fastifyWebsocket, { options: { maxPayload: 1024 * 1024 } });
  // Before mercurius-upload: its onSend waits for the whole body, so files nobody read are drained first (refusals
  // answer).
  await registerUploadDrain(app);
  // One byte over the image limit: a larger file reaches the resolvers' size check and is refused, never cut short.
  await app.register(mercuriusUpload, { maxFileSize: IMAGE_MAX_BYTES + 1, maxFiles: 2 });
  // Mercurius parses WebSocket documents without our token limit: guard those sockets before it reads a message.
  app.websocketServer.on('connection', (socket, req) => {
    if (isGraphqlSocketRequest(req)) guardGraphqlSocket(socket);
  });
  await app.register(mercurius, {
    schema: getSchema(),
    path: '/query',
    graphiql: false,
    jit: 1,
    // Our limits run in preValidation below, before graphql's own rules; the token limit while parsing.
    graphql: { parseOptions: PARSE_OPTIONS },
    context: (req): Context => ({
      services,
      auth: authCache.get(req) ?? null,
      ip: req.ip,
      origin: req.headers.origin,
      capabilities: capabilitiesOf(req.headers),
      log: req.log,
    }),
    subscription: {
      // The token travels in the connection parameters: { authorization: 'Bearer …' }.
      onConnect: async ({ payload }) => {
        const header =
          (payload as Record<string, unknown> | undefined)?.authorization ??
          (payload as Record<string, unknown> | undefined)?.Authorization;
        if (!header) return { auth: null };
        const auth = await resolveAuth(services, String(header));
        return auth ? { auth } : false;
      },
      context: (_conn, req): Context => ({
        services,
        auth: null,
        ip: req.ip,
        origin: req.headers.origin,
        log: req.log,
      }),
    },
    // What a client sees of any error: graphql/errors.ts (the original logged with the request's id).
    errorFormatter: (execution, context) =>
      formatErrors(execution, {
        production,
        log: (context as unknown as Partial<Context>).log ?? context.reply?.request.log ?? app.log,
      }),
  });
}

/** Subscriptions: the anonymous budget per document, and the validation and limits Mercurius leaves out for them. */
function guardSubscriptions(
  app: FastifyInstance,
  services: Services,
  introspection: IntrospectionPolicy,
  production: boolean,
): void {
  // Anonymous subscriptions spend the same per-address budget as anonymous requests, one per document.
  app.graphql.addHook('preSubscriptionParsing', async (_schema, _source, context) => {
    const c = context as unknown as Context;
    if (c.auth) return;
    const wait = await rateLimitWait(services, 'anonymousQuery', c.ip);
    if (wait !== null)
      throw toClientError(new AppError(ERROR_CODES.RATE_LIMITED, ERROR_TEXTS.rateLimited, { retryAfterSeconds: wait }));
  });
  // Subscription context: mercurius merges onConnect's result into the context.
  // Mercurius does not validate subscription documents: apply the same rules (and our limits) as on HTTP.
  app.graphql.addHook('preSubscriptionExecution', async (schema, document, context) => {
    const c = context as unknown as Context & { auth?: AuthInfo | null };
    c.auth ??= null;
    const limitErrors = checkQueryLimits(schema, document, 'most', limitsFor(!!c.auth));
    if (limitErrors.length > 0) throw toClientError(limitErrors[0], { production, log: c.log });
    const errors = validate(schema, document, specifiedRules);
    if (errors.length > 0) throw toClientError(errors[0], { production, log: c.log });
    if (!mayIntrospect(introspection, c.auth) && usesIntrospection(schema, document)) throw introspectionRefused();
  });
}

/**
 * Every request: JSON documents refused, our limits before graphql's rules and again with the variables, API keys
 * within their scope, introspection only for whom the setting allows.
 */
function guardRequests(app: FastifyInstance, introspection: IntrospectionPolicy): void {
  // Mercurius runs a query string that is JSON as a ready-made AST, past the parser's token limit: refuse it.
  // Then our limits, before graphql's own rules (thrown like Mercurius' validation failure: a 400 listing the errors).
  app.graphql.addHook('preValidation', async (schema, document) => {
    if (!isParsedDocument(document))
      throw new AppError(ERROR_CODES.BAD_USER_INPUT, 'The query is not a GraphQL document.');
    const errors = checkQueryLimits(schema, document);
    if (errors.length > 0) throw Object.assign(new Error(errors[0]!.message), { errors });
  });
  // Every request, cached documents too: the cost again with the request's variables (a page asked as `first: $n`)
  // and the caller's limit (anonymous documents may cost less). The check above let through the most either allows.
  app.graphql.addHook('preExecution', async (schema, document, context, variables) => {
    const errors = checkQueryLimits(
      schema,
      document,
      variables ?? {},
      limitsFor(!!(context as unknown as Context).auth),
    );
    if (errors.length > 0) throw Object.assign(new Error(errors[0]!.message), { errors });
  });
  // An API key may select only the fields of its scope, on every path (graphql/api-key-scope.ts), on every request.
  app.graphql.addHook('preExecution', async (schema, document, context) => {
    const auth = (context as unknown as Context).auth;
    if (!auth?.apiKeyId) return;
    const field = fieldOutsideApiKeyScope(schema, document);
    if (field) throw apiKeyScopeRefusal(field);
  });
  // Every request (cached documents skip validation): introspection only for whom the setting allows.
  if (introspection !== 'open') {
    app.graphql.addHook('preExecution', async (schema, document, context) => {
      if (!mayIntrospect(introspection, (context as unknown as Context).auth) && usesIntrospection(schema, document))
        throw introspectionRefused();
    });
  }
}

/** 429 with the GraphQL error shape and Retry-After (an API key over its limit, an address over the anonymous one). */
function rateLimitedReply(reply: FastifyReply, wait: number): FastifyReply {
  return refuseGraphQL(reply.header('retry-after', String(wait)), ERROR_CODES.RATE_LIMITED, ERROR_TEXTS.rateLimited, {
    retryAfterSeconds: wait,
  });
}
