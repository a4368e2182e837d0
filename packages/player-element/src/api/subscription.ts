/**
 * The player's one GraphQL subscription (AI marker progress) over graphql-ws's client. Loaded only when a super admin
 * generates markers (load-subscription.ts; the script-tag build makes it tour-player-subscription.js), so viewers never
 * download it. One subscription per client, no retries (a dropped socket is reported; the panel's resume window covers
 * a reload).
 */
import { createClient } from 'graphql-ws';

export interface SubscriptionHandle {
  close(): void;
}

export function subscribe<T>(
  api: string,
  query: string,
  variables: Record<string, unknown>,
  token: string | undefined,
  on: { next(data: T): void; error(message: string): void; complete(): void },
): SubscriptionHandle {
  const client = createClient({
    url: `${api.replace(/\/$/, '').replace(/^http/, 'ws')}/query`,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
  });
  let done = false;
  const finish = () => {
    done = true;
    void client.dispose();
  };
  const unsubscribe = client.subscribe<T>(
    { query, variables },
    {
      next: (result) => {
        if (result.errors?.length) on.error(result.errors[0]!.message);
        else if (result.data) on.next(result.data as T);
      },
      error: (e) => {
        if (done) return;
        // GraphQL errors arrive as a list; a socket that closed or never opened as its CloseEvent or Event.
        const message = Array.isArray(e)
          ? ((e[0] as { message?: string } | undefined)?.message ?? 'Subscription error')
          : e instanceof Error
            ? e.message
            : 'WebSocket connection error';
        on.error(message);
        finish();
      },
      complete: () => {
        if (done) return;
        on.complete();
        finish();
      },
    },
  );
  return {
    close() {
      if (done) return;
      unsubscribe();
      finish();
    },
  };
}
