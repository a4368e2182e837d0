/** A real HTTP receiver on loopback for webhook tests: records each request; each answer is chosen by the test. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface Received {
  headers: Record<string, string>;
  body: string;
}
/** What to do with the nth request (0-based): a status to answer, or 'hang' to never answer. */
export type Answer = number | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `n` requests have arrived (whatever was answered). */
  waitFor(n: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (n: number) => Answer = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<{ n: number; resolve: (r: Received[]) => void }> = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = received.length;
      received.push({
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      for (const w of waiters.filter((w) => received.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(received.slice());
      }
      const a = answer(n);
      if (a === 'hang') return void hanging.push(res);
      res.writeHead(a, { 'content-type': 'text/plain' }).end(a >= 200 && a < 300 ? 'thanks' : `answer ${a}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    waitFor: (n) =>
      received.length >= n ? Promise.resolve(received.slice()) : new Promise((resolve) => waiters.push({ n, resolve })),
    close: async () => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
