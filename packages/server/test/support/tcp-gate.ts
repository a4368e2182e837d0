/**
 * A TCP proxy on loopback in front of one server that a test can close: while closed, new connections are dropped at
 * once (what a database that is restarting, or a network that is cut, does to a client connecting again); the
 * connections already through pass untouched. Tells which local ports its upstream connections use, so a test can
 * find them in the server's own view (PostgreSQL's pg_stat_activity.client_port).
 */
import net from 'node:net';

export interface TcpGate {
  /** host:port to connect to instead of the server's. */
  hostPort: string;
  /** Drops new connections while true. */
  closed: boolean;
  /** The local ports of the connections now open upstream. */
  upstreamPorts(): number[];
  close(): Promise<void>;
}

export async function startTcpGate(host: string, port: number): Promise<TcpGate> {
  const upstreams = new Set<net.Socket>();
  const sockets = new Set<net.Socket>();
  const gate: TcpGate = {
    hostPort: '',
    closed: false,
    upstreamPorts: () => [...upstreams].map((s) => s.localPort).filter((p): p is number => p !== undefined),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = net.createServer((client) => {
    if (gate.closed) return void client.destroy();
    const upstream = net.connect(port, host);
    for (const s of [client, upstream]) sockets.add(s);
    upstream.on('connect', () => upstreams.add(upstream));
    const drop = () => {
      client.destroy();
      upstream.destroy();
      upstreams.delete(upstream);
      for (const s of [client, upstream]) sockets.delete(s);
    };
    client.pipe(upstream);
    upstream.pipe(client);
    for (const s of [client, upstream]) {
      s.on('error', drop);
      s.on('close', drop);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gate.hostPort = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return gate;
}
