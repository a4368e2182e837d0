/**
 * Closes the HTTP side of a node within a deadline: the listener stops accepting at once, WebSocket clients are told
 * to reconnect elsewhere (close code 1001, "going away"), in-flight requests finish (requests arriving on kept-alive
 * connections meanwhile get 503), and whatever is still open at the deadline is cut.
 */
import type { FastifyInstance } from 'fastify';
import type { WebSocket, WebSocketServer } from 'ws';

const GOING_AWAY = 1001;

export async function closeHttpGracefully(app: FastifyInstance, timeoutMs: number): Promise<void> {
  // GraphQL subscriptions (graphql-ws through @fastify/websocket); the live viewing rooms close their own in preClose.
  const wss = (app as unknown as { websocketServer?: WebSocketServer }).websocketServer;
  const sockets: WebSocket[] = [...(wss?.clients ?? [])];
  for (const ws of sockets) ws.close(GOING_AWAY, 'Server shutting down');
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const closing = app.close();
  const outcome = await Promise.race([closing.then(() => 'closed' as const), deadline]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    app.log.warn('shutdown deadline reached: closing the remaining connections');
    for (const ws of sockets) ws.terminate();
    app.server.closeAllConnections();
    await closing;
  }
}
