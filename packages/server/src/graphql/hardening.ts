/**
 * What the GraphQL endpoint refuses before or around validation, on HTTP and on the graphql-ws WebSocket:
 * documents over the token limit, JSON "ASTs" in place of a query string, schema introspection in production for
 * anyone but API users, "Did you mean …" suggestions in production error messages, and on a socket more messages or
 * more document than its budget (SOCKET_BUDGET).
 */
import type { IncomingMessage } from 'node:http';
import {
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  validate,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import type WebSocket from 'ws';
import { ERROR_CODES, isProPlan } from '@roomwalk/shared';
import type { AuthInfo } from './builder.js';
import { QUERY_LIMITS, countTokens, tokenLimitError } from './limits.js';

export type IntrospectionPolicy = 'open' | 'api' | 'off';

/** GRAPHQL_INTROSPECTION, or its default: open outside production, API users only in production. */
export function introspectionPolicy(setting: string | undefined, production: boolean): IntrospectionPolicy {
  if (setting === 'open' || setting === 'api' || setting === 'off') return setting;
  return production ? 'api' : 'open';
}

/** API users: signed in on the Pro plan (APIs & Webhooks is a Pro feature) or super admins. */
export function mayIntrospect(policy: IntrospectionPolicy, auth: AuthInfo | null | undefined): boolean {
  if (policy === 'open') return true;
  if (policy === 'off' || !auth) return false;
  return auth.isSuperAdmin || isProPlan(auth.roles);
}

const introspects = new WeakMap<DocumentNode, boolean>();
/** Whether the document asks for __schema or __type (cached per parsed document: Mercurius reuses cached documents). */
export function usesIntrospection(schema: GraphQLSchema, document: DocumentNode): boolean {
  let known = introspects.get(document);
  if (known === undefined) {
    known = validate(schema, document, [NoSchemaIntrospectionCustomRule]).length > 0;
    introspects.set(document, known);
  }
  return known;
}

export function introspectionRefused(): GraphQLError {
  return new GraphQLError('Schema introspection is not available to this caller.', {
    extensions: { code: ERROR_CODES.FORBIDDEN },
  });
}

const SUGGESTION = /\s*Did you mean [^?]*\?\s*$/;
/** Drops graphql-js' "Did you mean …?" hint, which names parts of the schema the caller did not know. */
export function withoutSuggestion(message: string): string {
  return message.replace(SUGGESTION, '');
}

/** A JSON message of the graphql-ws protocols that carries a document to run. */
interface StartMessage {
  id?: unknown;
  type?: unknown;
  payload?: { query?: unknown } | null;
}

/**
 * What one GraphQL socket may make the node parse and validate. Each document costs its tokens to lex, parse and
 * check (about linear in the tokens; what one socket held the event loop for: docs/results.md, One graphql-ws socket):
 * a socket gets a burst and a sustained rate of operations and of tokens, and a message is at most
 * `messageBytes`. The console's sockets carry a few small subscriptions (under 100 tokens each, a few hundred bytes);
 * the token burst takes five documents at the token limit at once. A socket over its budget is closed with
 * `overBudgetCode` (what it had queued is dropped), one with a larger message with 1009 (message too big).
 */
export const SOCKET_BUDGET = {
  operationsBurst: 50,
  operationsPerSecond: 1,
  tokensBurst: 10_000,
  tokensPerSecond: 1_000,
  messageBytes: 64 * 1024,
  /** graphql-ws's "too many requests" code: its client does not reconnect after it. */
  overBudgetCode: 4429,
} as const;

/** A socket's two token buckets (operations, document tokens), refilled by elapsed time. */
class SocketBudget {
  #operations: number = SOCKET_BUDGET.operationsBurst;
  #tokens: number = SOCKET_BUDGET.tokensBurst;
  #at = performance.now();

  /** Spends one operation of `tokens`; false when the socket has not that much left. */
  spend(tokens: number): boolean {
    const now = performance.now();
    const seconds = (now - this.#at) / 1000;
    this.#at = now;
    this.#operations = Math.min(
      SOCKET_BUDGET.operationsBurst,
      this.#operations + seconds * SOCKET_BUDGET.operationsPerSecond,
    );
    this.#tokens = Math.min(SOCKET_BUDGET.tokensBurst, this.#tokens + seconds * SOCKET_BUDGET.tokensPerSecond);
    if (this.#operations < 1 || this.#tokens < tokens) return false;
    this.#operations -= 1;
    this.#tokens -= tokens;
    return true;
  }
}

const byteLength = (data: Buffer | ArrayBuffer | Buffer[]) =>
  Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength;

/**
 * Guards a GraphQL WebSocket before Mercurius sees its messages: Mercurius parses `payload.query` without a token
 * limit and runs a non-string `query` as a ready-made AST. A document over the token limit answers an error for its
 * id; a message whose query is not a string closes the socket with 4400 (invalid message), as graphql-ws does. A
 * message over SOCKET_BUDGET.messageBytes closes it with 1009, operations beyond the socket's budget with 4429. The
 * messages that pass reach Mercurius in order, one per turn of the event loop, so a socket's burst cannot hold the
 * loop for all its documents at once (other sockets and requests are served between two of them).
 */
export function guardGraphqlSocket(socket: WebSocket, maxTokens: number = QUERY_LIMITS.maxTokens): void {
  const emit = socket.emit;
  const budget = new SocketBudget();
  const queue: unknown[][] = [];
  let draining = false;
  const drain = () => {
    const next = queue.shift();
    if (next && socket.readyState === socket.OPEN) emit.call(socket, 'message', ...next);
    if (queue.length > 0) setImmediate(drain);
    else draining = false;
  };
  const pass = (args: unknown[]) => {
    queue.push(args);
    if (draining) return;
    draining = true;
    setImmediate(drain);
  };
  socket.emit = function guardedEmit(this: WebSocket, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'message') return emit.call(this, event, ...args);
    const [data] = args as [Buffer | ArrayBuffer | Buffer[]];
    if (byteLength(data) > SOCKET_BUDGET.messageBytes) {
      this.close(1009, `Message too big: at most ${SOCKET_BUDGET.messageBytes / 1024} KB.`);
      return true;
    }
    let msg: StartMessage;
    try {
      const text = Array.isArray(data) ? Buffer.concat(data).toString() : Buffer.from(data as ArrayBuffer).toString();
      msg = JSON.parse(text) as StartMessage;
    } catch {
      pass(args); // Mercurius answers malformed JSON itself.
      return true;
    }
    if (!msg || typeof msg !== 'object' || (msg.type !== 'subscribe' && msg.type !== 'start')) {
      pass(args);
      return true;
    }
    const query = msg.payload?.query;
    if (typeof query !== 'string') {
      this.close(4400, 'Invalid message: the query must be a string.');
      return true;
    }
    const tokens = countTokens(query, maxTokens);
    if (!budget.spend(Math.min(tokens, maxTokens))) {
      queue.length = 0;
      this.close(SOCKET_BUDGET.overBudgetCode, 'Too many operations on this socket: slow down and connect again.');
      return true;
    }
    if (tokens > maxTokens) {
      const err = tokenLimitError();
      const payload = [{ message: err.message, extensions: err.extensions }];
      this.send(
        JSON.stringify({
          type: 'error',
          id: msg.id,
          payload: this.protocol === 'graphql-transport-ws' ? payload : payload[0],
        }),
      );
      return true;
    }
    pass(args);
    return true;
  } as typeof socket.emit;
}

export const isGraphqlSocketRequest = (req: IncomingMessage, path = '/query') => (req.url ?? '').split('?')[0] === path;

/**
 * Refusals of the request's shape that Mercurius or Fastify raise as plain errors (they would be masked as INTERNAL):
 * a JSON array body (batching is off), a non-string `query`, a missing query. Returns the client's error, or null.
 */
export function requestShapeRefusal(err: unknown): GraphQLError | null {
  const candidates = [err, (err as { originalError?: unknown } | null)?.originalError];
  for (const c of candidates) {
    const e = c as
      | { code?: unknown; message?: unknown; validation?: Array<{ instancePath?: string; keyword?: string }> }
      | null
      | undefined;
    if (!e || typeof e.code !== 'string') continue;
    if (e.code === 'FST_ERR_VALIDATION') {
      const first = e.validation?.[0];
      let message = 'The request is not a GraphQL request (a JSON object with a "query" string).';
      if (first?.instancePath === '' && first.keyword === 'type')
        message = 'Send one GraphQL operation per request: a JSON array of operations (batching) is not accepted.';
      else if (first?.instancePath === '/query') message = 'The query must be a string.';
      return new GraphQLError(message, { extensions: { code: ERROR_CODES.BAD_USER_INPUT } });
    }
    if (e.code === 'MER_ERR_GQL_PERSISTED_QUERY_NOT_FOUND' || e.code === 'MER_ERR_GQL_PERSISTED_QUERY_NOT_SUPPORTED') {
      return new GraphQLError('The request has no query.', { extensions: { code: ERROR_CODES.BAD_USER_INPUT } });
    }
  }
  // The multipart parser's refusals (graphql-upload-minimal, http-errors marked safe to show): too many files,
  // a malformed `operations` or `map` field.
  for (const c of candidates) {
    const e = c as { expose?: unknown; status?: unknown; message?: unknown } | null | undefined;
    if (
      !e ||
      e instanceof GraphQLError ||
      e.expose !== true ||
      typeof e.status !== 'number' ||
      e.status < 400 ||
      e.status >= 500
    )
      continue;
    const tooMany = /^(\d+) max file uploads exceeded/.exec(String(e.message));
    const message = tooMany ? `Send at most ${tooMany[1]} files with one request.` : String(e.message);
    return new GraphQLError(message, { extensions: { code: ERROR_CODES.BAD_USER_INPUT, status: e.status } });
  }
  return null;
}
