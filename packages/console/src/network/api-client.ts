/** The urql client: /query over HTTP with the session token, subscriptions over graphql-ws (loaded on first use). */
import { Client, cacheExchange, fetchExchange, subscriptionExchange } from 'urql';
import type { Client as WsClient } from 'graphql-ws';
import { serverUrl, websocketUrl } from '../config/page-config.js';
import { createPolicyFetch } from './policy-fetch.js';

export interface ApiClientOptions {
  token: string | null;
  onUnauthorized: () => void;
  fetchImpl?: typeof fetch;
}

export function createApiClient({ token, onUnauthorized, fetchImpl }: ApiClientOptions): Client {
  let ws: Promise<WsClient> | null = null;
  const wsClient = () =>
    (ws ??= import('graphql-ws').then(({ createClient }) =>
      createClient({
        url: websocketUrl(),
        lazy: true,
        connectionParams: token ? { authorization: `Bearer ${token}` } : {},
      }),
    ));

  return new Client({
    url: `${serverUrl()}/query`,
    preferGetMethod: false,
    fetch: createPolicyFetch({ fetchImpl, onUnauthorized: token ? onUnauthorized : undefined }),
    fetchOptions: () => ({
      credentials: 'same-origin',
      headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    }),
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query ?? '' };
          return {
            subscribe(sink) {
              let dispose: (() => void) | null = null;
              let closed = false;
              void wsClient().then((client) => {
                if (!closed) dispose = client.subscribe(input, sink);
              });
              return {
                unsubscribe() {
                  closed = true;
                  dispose?.();
                },
              };
            },
          };
        },
      }),
    ],
  });
}
