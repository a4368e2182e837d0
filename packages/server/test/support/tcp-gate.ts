/**
 * A TCP proxy on loopback in front of one server that a test can close: while closed, new connections are dropped at
 * once (what a database that is restarting, or a network that is cut, does to a client connecting again); the
 * connections already through pass untouched. It can also cut the connections through it (a proxy's idle cut) or
 * freeze them (a silent network cut: nothing passes, nothing closes). Tells which local ports its upstream connections
 * use, so a test can find them in the server's own view (PostgreSQL's pg_stat_activity.client_port).
 */
import net from 'node:net';

export interface TcpGate {
  /** host:port to connect to instead of the server's. */
  hostPort: string;
  /** Drops new connections while true. */
  closed: boolean;
  /** The local ports of the connections now open upstream. */
  upstreamPorts(): number[];
  /** Ends every connection through the gate, both ways. */
  cut(): void;
  /** Stops forwarding on every connection through the gate without closing it. */
  freeze(): void;
  close(): Promise<void>;
}

export async function startTcpGate(host: string, port: number): Promise<TcpGate> {
  const upstreams = new Set<net.Socket>();
  const sockets = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  const gate: TcpGate = {
    hostPort: '',
    closed: false,
    upstreamPorts: () => [...upstreams].map((s) => s.localPort).filter((p): p is number => p !== undefined),
    cut: () => {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
    },
    freeze: () => {
      for (const [a, b] of pairs) {
        a.unpipe(b);
        b.unpipe(a);
        a.pause();
        b.pause();
      }
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = net.createServer((client) => {
    if (gate.closed) return void client.destroy();
    const upstream = net.connect(port, host);
    for (const s of [client, upstream]) sockets.add(s);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    upstream.on('connect', () => upstreams.add(upstream));
    const drop = () => {
      client.destroy();
      upstream.destroy();
      upstreams.delete(upstream);
      pairs.delete(pair);
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
