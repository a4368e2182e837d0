/**
 * One anonymous graphql-ws socket cannot hold the node: 150 subscribe messages of a 600-token document sent at once
 * (each parsed and validated) held the event loop 4.3 s (/healthz 2.9 s in the issue, once a minute with the
 * per-address budget). Now a socket has a budget of operations and document tokens and is closed with 4429 past it,
 * a message over 64 KB is closed with 1009, and a socket that behaves is served as before.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_BUDGET } from '../../src/graphql/hardening.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { SUB_ROOT, describeHealth, whileHealthy } from './harness.js';

interface Flood {
  /** Answers (error, next, complete) received before the socket closed. */
  answers: number;
  closeCode?: number;
  closeReason?: string;
}

/** Opens an anonymous graphql-transport-ws socket and sends `n` messages at once once acknowledged. */
function flood(url: string, message: (i: number) => string, n: number, keepOpen = false): Promise<Flood> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/query`, 'graphql-transport-ws');
    let answers = 0;
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { type: string };
      if (msg.type === 'connection_ack') for (let i = 0; i < n; i++) ws.send(message(i));
      else if (msg.type === 'error' || msg.type === 'next' || msg.type === 'complete') {
        answers++;
        if (answers === n && !keepOpen) ws.close(1000);
        if (answers === n && keepOpen) resolve({ answers });
      }
    });
    ws.on('close', (code, reason) => resolve({ answers, closeCode: code, closeReason: String(reason) }));
    ws.on('error', reject);
  });
}

const subscribe = (id: number, query: string, variables?: unknown) =>
  JSON.stringify({ id: String(id), type: 'subscribe', payload: { query, ...(variables ? { variables } : {}) } });
/** About 600 tokens: an operation and 49 fragments nobody spreads (each parsed and validated). */
const heavy = (i: number) =>
  `subscription S${i} { ${SUB_ROOT} { progress } } ${Array.from(
    { length: 49 },
    (_, k) => `fragment F${k}_${i} on Subscription { ${SUB_ROOT} { progress } }`,
  ).join(' ')}`;

describe('graphql-ws: what one socket may make the node validate', () => {
  let t: TestApp;
  const figures: string[] = [];
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(async () => {
    console.log(`graphql-ws socket budget: ${figures.join('; ')}`);
    await t?.stop();
  });

  it('closes a socket that sends more documents than its budget with 4429, before validating them all', async () => {
    const { result, health } = await whileHealthy(t.url, () => flood(t.url, (i) => subscribe(i, heavy(i)), 150));
    figures.push(`150 documents of ~600 tokens on one socket: ${describeHealth(health)}`);
    expect(result.closeCode).toBe(SOCKET_BUDGET.overBudgetCode);
    expect(result.closeReason).toMatch(/too many operations/i);
    expect(result.answers).toBeLessThan(SOCKET_BUDGET.tokensBurst / 500);
    // The node answers the next socket as usual.
    const next = await flood(t.url, (i) => subscribe(i, `subscription { ${SUB_ROOT} { progress } }`), 1);
    expect(next.answers).toBe(1);
  });

  it('closes a socket whose message is larger than 64 KB with 1009', async () => {
    const big = Array.from({ length: 20_000 }, () => 'abcdefghij');
    const { result, health } = await whileHealthy(t.url, () =>
      flood(t.url, (i) => subscribe(i, `subscription($v: [String]) { ${SUB_ROOT} { progress } }`, { v: big }), 5),
    );
    figures.push(`5 messages of 240 KB: ${describeHealth(health)}`);
    expect(result.closeCode).toBe(1009);
    expect(result.answers).toBe(0);
  });

  it('serves a socket that behaves: twenty small subscriptions at once, each answered, the socket left open', async () => {
    const result = await flood(t.url, (i) => subscribe(i, `subscription { ${SUB_ROOT} { progress } }`), 20, true);
    expect(result).toEqual({ answers: 20 });
  });
});
