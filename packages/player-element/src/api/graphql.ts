/**
 * A small GraphQL-over-HTTP call: POST {query, variables} to `${api}/query`; with `get`, a GET of the same (the public
 * tour query without a session: the server answers it with an ETag from its cache, and the browser revalidates with
 * If-None-Match, 304 when nothing changed). Capabilities (a grant, a pass, an audience link's token) go in request
 * headers (CAPABILITY_HEADERS), never in the GET's URL, which every access log and proxy keeps.
 */
import { CAPABILITY_HEADERS } from '@roomwalk/shared/player-documents';
import type { DocumentResult, DocumentVariables, SchemaCheck } from './graphql-types.js';

export class GraphQLRequestError extends Error {
  readonly code: string | undefined;
  /** The error's extensions (a protected tour's refusal carries the company's branding in `gate`). */
  readonly extensions: Record<string, unknown> | undefined;
  constructor(message: string, code: string | undefined, extensions?: Record<string, unknown>) {
    super(message);
    this.name = 'GraphQLRequestError';
    this.code = code;
    this.extensions = extensions;
  }
}

interface GraphQLResponse {
  data?: unknown;
  errors?: { message: string; extensions?: { code?: string; [k: string]: unknown } }[];
}

interface RequestOptions {
  token?: string | undefined;
  signal?: AbortSignal | undefined;
  get?: boolean;
  /** Sent as request headers: the grant and passes (`access`) and the audience link's token (`link`). */
  capabilities?: { access?: string | undefined; link?: string | undefined };
}

/** A document written as a string literal: its variables and its answer typed from the schema (graphql-types.ts). */
export function graphqlRequest<const Text extends string>(
  api: string,
  query: Text & SchemaCheck<Text>,
  variables: DocumentVariables<Text>,
  options?: RequestOptions,
): Promise<DocumentResult<Text>>;
/**
 * A document typed by its caller (`graphqlRequest<Answer>(…)`): a text built at run time (the tour's forms with a
 * grant or a link, `PLAYER_TOUR_ACCESS_QUERY`), or a caller not moved to the derived types yet. A literal without a
 * type argument is refused here, so a document the schema fails never falls through to this form.
 */
export function graphqlRequest<T, Text extends string = string>(
  api: string,
  query: Text & (string extends Text ? unknown : never),
  variables: Record<string, unknown>,
  options?: RequestOptions,
): Promise<T>;
export async function graphqlRequest(
  api: string,
  query: string,
  variables: Record<string, unknown>,
  options: RequestOptions = {},
): Promise<unknown> {
  const get = options.get === true && !options.token;
  // A GET carries no content-type, so a cross-origin one needs no preflight.
  const headers: Record<string, string> = get
    ? { accept: 'application/json' }
    : { 'content-type': 'application/json', accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const caps = options.capabilities;
  if (caps?.access) headers[CAPABILITY_HEADERS.access] = caps.access;
  if (caps?.link) headers[CAPABILITY_HEADERS.link] = caps.link;
  const base = `${api.replace(/\/$/, '')}/query`;
  let res: Response;
  try {
    res = await fetch(get ? `${base}?${new URLSearchParams({ query, variables: JSON.stringify(variables) })}` : base, {
      method: get ? 'GET' : 'POST',
      headers,
      ...(get ? {} : { body: JSON.stringify({ query, variables }) }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new GraphQLRequestError((e as Error).message || 'Network error', 'NETWORK');
  }
  let body: GraphQLResponse;
  try {
    body = (await res.json()) as GraphQLResponse;
  } catch {
    throw new GraphQLRequestError(`HTTP ${res.status}`, 'HTTP');
  }
  const first = body.errors?.[0];
  if (first) throw new GraphQLRequestError(first.message, first.extensions?.code, first.extensions);
  if (!res.ok || !body.data) throw new GraphQLRequestError(`HTTP ${res.status}`, 'HTTP');
  return body.data;
}
