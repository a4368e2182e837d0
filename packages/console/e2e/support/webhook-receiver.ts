/**
 * A webhook receiver on 127.0.0.1 for the journeys: answers 200 and keeps what it got; a test waits for a
 * delivery whose signature verifies with the endpoint's secret through the Standard Webhooks verifier.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Delivery {
  headers: Record<string, string>;
  body: string;
}
export interface VerifiedEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

export interface Receiver {
  url: string;
  received: Delivery[];
  /** The first delivery that verifies with `secret` and matches `match`; rejects after `timeoutMs`. */
  waitForVerified(secret: string, match: (e: VerifiedEvent) => boolean, timeoutMs: number): Promise<VerifiedEvent>;
  close(): Promise<void>;
}

/** The event in a delivery when its signature verifies with `secret` (Webhook.verify throws otherwise). */
export function verify(secret: string, d: Delivery): VerifiedEvent | null {
  try {
    const payload = new Webhook(secret).verify(d.body, d.headers) as { type: string; data: Record<string, unknown> };
    return { id: d.headers['webhook-id'] ?? '', type: payload.type, data: payload.data };
  } catch {
    return null;
  }
}

export async function startReceiver(): Promise<Receiver> {
  const received: Delivery[] = [];
  const listeners = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('received');
      for (const l of listeners) l();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/roomwalk-hooks`,
    received,
    waitForVerified: (secret, match, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          for (const d of received) {
            const e = verify(secret, d);
            if (e && match(e)) {
              done();
              resolve(e);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no verified delivery matched within ${timeoutMs} ms (${received.length} received)`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
