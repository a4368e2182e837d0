/** The API role's HTTP surface: GraphQL on /query (HTTP and graphql-ws), its hardening, and every plain route. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';
import mercurius from 'mercurius';
import { GraphQLError, specifiedRules, validate } from 'graphql';
import { mercuriusUpload } from 'mercurius-upload';
import fastifyWebsocket from '@fastify/websocket';
import { resolveAuth } from './services/resolve-auth.js';
import type { AuthInfo, Context } from './graphql/builder.js';
import { getSchema } from './graphql/schema.js';
import { AppError, toClientError } from './graphql/errors.js';
import { PARSE_OPTIONS, checkQueryLimits, isParsedDocument, isTokenLimitError, tokenLimitError } from './graphql/limits.js';
import { guardGraphqlSocket, introspectionPolicy, introspectionRefused, isGraphqlSocketRequest, mayIntrospect, requestShapeRefusal, usesIntrospection, withoutSuggestion } from './graphql/hardening.js';
import { registerRoutes } from './http/routes.js';
import { registerUploadDrain } from './http/graphql-upload.js';
import { IMAGE_MAX_BYTES } from './services/accounts.js';
import type { Services } from './services/services.js';

export async function registerApi(app: FastifyInstance, services: Services): Promise<void> {
  const { config } = services;
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
}
