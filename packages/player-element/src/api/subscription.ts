/**
 * A minimal graphql-ws (graphql-transport-ws) client for the one subscription the player
 * uses; loaded lazily so viewers never pay for it.
 */
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
  const url = `${api.replace(/\/$/, '').replace(/^http/, 'ws')}/query`;
  const ws = new WebSocket(url, 'graphql-transport-ws');
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    try {
      ws.close(1000);
    } catch {
      /* already closed */
    }
  };
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: 'connection_init', payload: token ? { authorization: `Bearer ${token}` } : {} }));
  };
  ws.onmessage = (ev) => {
    let msg: { type: string; id?: string; payload?: unknown };
    try {
      msg = JSON.parse(String(ev.data));
    } catch {
      return;
    }
    if (msg.type === 'connection_ack') {
      ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query, variables } }));
    } else if (msg.type === 'ping') {
      ws.send(JSON.stringify({ type: 'pong' }));
    } else if (msg.type === 'next') {
      const payload = msg.payload as { data?: T; errors?: { message: string }[] };
      if (payload.errors?.length) on.error(payload.errors[0]!.message);
      else if (payload.data) on.next(payload.data);
    } else if (msg.type === 'error') {
      const errs = msg.payload as { message: string }[];
      on.error(errs?.[0]?.message ?? 'Subscription error');
      finish();
    } else if (msg.type === 'complete') {
      on.complete();
      finish();
    }
  };
  ws.onerror = () => {
    if (!done) on.error('WebSocket connection error');
  };
  ws.onclose = () => {
    if (!done) {
      done = true;
      on.complete();
    }
  };
  return {
    close() {
      if (!done && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ id: '1', type: 'complete' }));
      finish();
    },
  };
}
