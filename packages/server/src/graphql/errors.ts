/**
 * What a GraphQL client sees of an error, on HTTP and on the graphql-ws WebSocket: this module alone decides.
 * - An AppError (core/errors.ts) keeps its message and code (and its details as extensions).
 * - graphql's own parse and validation errors, Pothos' paging-argument checks, our query limits and the refusals of
 *   the request's shape are shown with their code (in production without graphql's "Did you mean …?" hints).
 * - Anything else becomes ERROR_TEXTS.unexpected with code INTERNAL; the original is logged through the request's
 *   logger (which carries its request id), never sent.
 * The API wires it in three places that Mercurius needs (src/api.ts): the HTTP error formatter, the subscription
 * pre-execution hook, and the schema's subscribe functions (errors there bypass the formatter on WebSocket).
 */
import { GraphQLError, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { PothosValidationError } from '@pothos/core';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';
import { AppError } from '../core/errors.js';
import { graphqlErrors } from '../core/metrics.js';
import { requestShapeRefusal, withoutSuggestion } from './hardening.js';
import { isTokenLimitError, tokenLimitError } from './limits.js';

export { AppError, badInput, forbidden, notFound, unauthenticated } from '../core/errors.js';

/** Where the original of a masked error goes: a request's logger (Fastify's carry the request id). */
interface ErrorLog {
  error(obj: unknown, msg?: string): void;
}

export interface MaskOptions {
  /** Production drops graphql's "Did you mean …?" hints, which name parts of the schema the caller did not know. */
  production?: boolean;
  log?: ErrorLog | undefined;
}

/** Maps any thrown value to the client-safe GraphQLError (see the module comment). */
export function toClientError(err: unknown, opts: MaskOptions = {}): GraphQLError {
  const answer = clientErrorOf(err, opts);
  graphqlErrors.inc({ code: String(answer.extensions.code ?? ERROR_CODES.INTERNAL) });
  return answer;
}

function clientErrorOf(err: unknown, opts: MaskOptions): GraphQLError {
  const original = err instanceof GraphQLError && err.originalError ? err.originalError : err;
  const path = err instanceof GraphQLError ? err.path : undefined;
  if (original instanceof AppError) {
    return new GraphQLError(original.message, {
      path,
      extensions: { code: original.code, ...(original.details ?? {}) },
    });
  }
  if (err instanceof GraphQLError && isTokenLimitError(err.message)) return tokenLimitError();
  // Pothos' checks of paging arguments ("Argument "last" must be a non-negative integer") and cursors.
  if (original instanceof PothosValidationError && /^(Argument "|Invalid offset cursor)/.test(original.message)) {
    return new GraphQLError(original.message, { path, extensions: { code: ERROR_CODES.BAD_USER_INPUT } });
  }
  // Validation and parse errors raised by graphql itself are safe to show, and so are graphql's variable errors
  // ("Variable "$x" got invalid value …"), which wrap graphql's own error (not a thrown Error, whose text could leak).
  if (err instanceof GraphQLError && (!err.originalError || isGraphqlOwn(err.originalError))) {
    const code = (err.extensions?.code as string | undefined) ?? ERROR_CODES.BAD_USER_INPUT;
    const message = opts.production ? withoutSuggestion(err.message) : err.message;
    return new GraphQLError(message, { path, extensions: { code } });
  }
  opts.log?.error({ err: original }, 'unexpected error answered as INTERNAL');
  return new GraphQLError(ERROR_TEXTS.unexpected, { path, extensions: { code: ERROR_CODES.INTERNAL } });
}

/** A GraphQLError made by graphql itself: no thrown Error anywhere down its chain. */
function isGraphqlOwn(err: unknown): boolean {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur instanceof GraphQLError; i++) {
    if (!cur.originalError) return true;
    cur = cur.originalError;
  }
  return false;
}

const GET_ONLY_READS_TEXT =
  'A GET request may only run a query: send mutations and subscriptions with POST (or over the WebSocket).';

type TransportError = Error & { statusCode?: number; code?: string };

/**
 * Mercurius' errorFormatter (HTTP, and errors of running subscriptions): every error through toClientError, and the
 * status: Fastify's refusals of the request itself keep theirs, a request that fails validation or parsing answers
 * 400 (or its shape refusal's status), anything that reached execution 200.
 */
export function formatErrors(
  execution: ExecutionResult,
  opts: MaskOptions,
): { statusCode: number; response: ExecutionResult } {
  // Fastify's refusals of the request itself (body over the 1 MB limit, malformed JSON, unsupported type).
  const transport = (execution.errors ?? [])
    .map((e) => e.originalError as TransportError | undefined)
    .find((o) => o?.code?.startsWith('FST_') && o.statusCode && o.statusCode < 500);
  if (transport) {
    const message = transport.statusCode === 413 ? 'The request is too large.' : transport.message;
    return {
      statusCode: transport.statusCode!,
      response: { data: null, errors: [toClientError(new AppError(ERROR_CODES.BAD_USER_INPUT, message))] },
    };
  }
  let requestError = false;
  const flat = (execution.errors ?? []).flatMap((e) => {
    // Mercurius wraps validation failures (our limits included) in one error holding the list.
    const wrapper = e.originalError as { errors?: unknown; code?: unknown } | undefined;
    const inner = wrapper?.errors;
    // A mutation or subscription sent by GET: the client's mistake (Mercurius raises it as a plain error).
    if (wrapper?.code === 'MER_ERR_METHOD_NOT_ALLOWED') {
      requestError = true;
      return [new GraphQLError(GET_ONLY_READS_TEXT, { extensions: { code: ERROR_CODES.BAD_USER_INPUT } })];
    }
    if (Array.isArray(inner)) {
      requestError = true;
      return inner as GraphQLError[];
    }
    if (e.message.startsWith('Syntax Error')) requestError = true;
    return [e];
  });
  let status = 400;
  const errors = flat.map((e) => {
    const shape = requestShapeRefusal(e);
    if (!shape) return toClientError(e, opts);
    requestError = true;
    const { status: s, ...extensions } = shape.extensions as { status?: number; code?: string };
    if (s) status = s;
    graphqlErrors.inc({ code: String(extensions.code ?? ERROR_CODES.BAD_USER_INPUT) });
    return new GraphQLError(shape.message, { extensions });
  });
  return {
    statusCode: requestError && !execution.data ? status : 200,
    response: { data: execution.data ?? null, errors },
  };
}

/** What the schema's subscribe functions find in their context to mask with. */
interface MaskingContext {
  services?: { config?: { NODE_ENV?: string }; log?: ErrorLog };
  log?: ErrorLog;
}

/**
 * Errors thrown while starting a subscription bypass Mercurius' formatter on WebSocket: mask them here the same way.
 */
export function maskSubscriptionErrors(schema: GraphQLSchema): GraphQLSchema {
  for (const field of Object.values(schema.getSubscriptionType()?.getFields() ?? {})) {
    const subscribe = field.subscribe;
    if (!subscribe) continue;
    field.subscribe = async (...args) => {
      try {
        return await subscribe(...args);
      } catch (err) {
        const ctx = (args[2] ?? {}) as MaskingContext;
        throw toClientError(err, {
          production: ctx.services?.config?.NODE_ENV === 'production',
          log: ctx.log ?? ctx.services?.log,
        });
      }
    };
  }
  return schema;
}
