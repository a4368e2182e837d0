/**
 * A TCP proxy on loopback that drops every connection once, after `cutAfterBytes` have gone upstream: what a phone
 * losing its network mid-upload does to the requests in flight. Connections after the cut pass untouched.
 */
import net from 'node:net';

export interface CuttingProxy {
  url: string;
  /** Bytes sent upstream so far. */
  readonly upstreamBytes: number;
  /** True once the cut happened. */
  readonly didCut: boolean;
  /** Arms another cut after `bytes` more bytes. */
  armCut(bytes: number): void;
  close(): Promise<void>;
}

export async function startCuttingProxy(target: URL, cutAfterBytes: number | null): Promise<CuttingProxy> {
  const sockets = new Set<net.Socket>();
  let upstreamBytes = 0;
  let cutAt: number | null = cutAfterBytes;
  let didCut = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('data', (chunk: Buffer) => {
      upstreamBytes += chunk.length;
      if (cutAt !== null && upstreamBytes >= cutAt) {
        cutAt = null;
        didCut = true;
        for (const s of sockets) s.destroy();
        sockets.clear();
        return;
      }
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    upstream.on('data', (chunk: Buffer) => {
      if (!client.write(chunk)) upstream.pause();
    });
    client.on('drain', () => upstream.resume());
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get upstreamBytes() {
      return upstreamBytes;
    },
    get didCut() {
      return didCut;
    },
    armCut(bytes: number) {
      cutAt = upstreamBytes + bytes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
