/** A small GraphQL-over-HTTP call: POST {query, variables} to `${api}/query`. */
export class GraphQLRequestError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.name = 'GraphQLRequestError';
    this.code = code;
  }
}

interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export async function graphqlRequest<T>(
  api: string,
  query: string,
  variables: Record<string, unknown>,
  options: { token?: string | undefined; signal?: AbortSignal | undefined } = {},
): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let res: Response;
  try {
    res = await fetch(`${api.replace(/\/$/, '')}/query`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, variables }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new GraphQLRequestError((e as Error).message || 'Network error', 'NETWORK');
  }
  let body: GraphQLResponse<T>;
  try {
    body = (await res.json()) as GraphQLResponse<T>;
  } catch {
    throw new GraphQLRequestError(`HTTP ${res.status}`, 'HTTP');
  }
  const first = body.errors?.[0];
  if (first) throw new GraphQLRequestError(first.message, first.extensions?.code);
  if (!res.ok || !body.data) throw new GraphQLRequestError(`HTTP ${res.status}`, 'HTTP');
  return body.data;
}
