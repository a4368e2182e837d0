/**
 * One company cannot slow another's webhooks. Company A's endpoint hangs for the whole timeout on every
 * delivery and A has a backlog of events; company B's delivery, raised after, must not wait for A's (before the fix:
 * 1.4 s became 38.7 s, every delivery slot held by A). Nor can three companies together: each hanging on its own
 * backlog, they held all eight of a worker's slots (three each) and another company's delivery waited 7–9 s for one of
 * them to time out. And "Send test" cannot be pressed without limit.
 */
import os from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { WEBHOOK_COMPANY_SLOTS, emitWebhookEvent } from '../../src/services/developer/webhook-deliveries.js';
import { WEBHOOK_NODE_SLOTS } from '../../src/jobs/webhook-delivery-job.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../fixtures/tours.js';
import { seedUser, type SeededUser } from '../helpers/seed.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const CREATE = `mutation($input: WebhookEndpointCreateInput!) { webhookEndpointCreate(input: $input) { endpoint { id } } }`;
const SEND_TEST = `mutation($id: ID!) { webhookEndpointSendTest(id: $id) }`;

describe('webhook deliveries across companies', () => {
  let t: TestApp;
  let a: SeededUser;
  let b: SeededUser;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    // A hanging endpoint holds a delivery for the whole timeout (10 s in production; 30 s here, so that on a loaded
    // machine none of A's requests times out while the test raises B's event).
    t = await startTestApp('pglite', { WEBHOOK_TIMEOUT_SECONDS: 30 });
    a = await seedUser(t.app, { plan: 'pro' });
    b = await seedUser(t.app, { plan: 'pro' });
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await t?.stop();
  });

  async function endpoint(who: SeededUser, answer: () => 200 | 'hang') {
    const r = await startReceiver(answer);
    receivers.push(r);
    const created = await t.gql(CREATE, { input: { url: r.url, events: ['TOUR_DELETED'] } }, who.token);
    expect(created.errors).toBeUndefined();
    return { receiver: r, id: created.data.webhookEndpointCreate.endpoint.id as string };
  }

  it("B's delivery goes out while A's endpoint hangs on A's backlog", async () => {
    const hanging = await endpoint(a, () => 'hang');
    const healthy = await endpoint(b, () => 200);
    for (let i = 0; i < 12; i++)
      await emitWebhookEvent(t.app.services, a.company.id, 'tour.deleted', { tour: { id: `tour_a${i}` } });
    // A's deliveries are in flight (their requests arrived and hang).
    await hanging.receiver.waitFor(WEBHOOK_COMPANY_SLOTS);
    const settledA = async () =>
      (
        await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
          WHERE w.company_id = ${a.company.id} AND d.status <> 'PENDING'`.execute(t.app.services.db)
      ).rows[0]!.n;
    const settledBefore = await settledA();
    const raised = performance.now();
    await emitWebhookEvent(t.app.services, b.company.id, 'tour.deleted', { tour: { id: 'tour_b' } });
    await healthy.receiver.waitFor(1);
    const delayMs = performance.now() - raised;

    // B went out without waiting for any of A's requests to time out, and A never had more than its share in flight.
    expect(await settledA(), "B's delivery waited for one of A's to time out").toBe(settledBefore);
    expect(hanging.receiver.received.length).toBe(WEBHOOK_COMPANY_SLOTS);
    console.log(
      `webhook fairness: company B's delivery arrived ${delayMs.toFixed(0)} ms after it was raised, while company A's endpoint hung on 12 deliveries (${WEBHOOK_COMPANY_SLOTS} in flight); load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}`,
    );
  }, 120_000);

  it('"Send test" is rate-limited per company', async () => {
    const ep = await endpoint(b, () => 200);
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await t.gql(SEND_TEST, { id: ep.id }, b.token));
    expect(answers.slice(0, 10).every((r) => !r.errors)).toBe(true);
    expect(answers[10]!.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.RATE_LIMITED);
  });
});

describe('webhook deliveries while three companies’ endpoints hang', () => {
  let t: TestApp;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    // 30 s: none of the hanging requests times out while the test runs, however loaded the machine (10 s in production).
    t = await startTestApp('pglite', { WEBHOOK_TIMEOUT_SECONDS: 30 });
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await t?.stop();
  });

  async function company(answer: () => 200 | 'hang') {
    const who = await seedUser(t.app, { plan: 'pro' });
    const r = await startReceiver(answer);
    receivers.push(r);
    const created = await t.gql(CREATE, { input: { url: r.url, events: ['TOUR_DELETED'] } }, who.token);
    expect(created.errors).toBeUndefined();
    return { who, receiver: r };
  }

  it("another company's delivery goes out without waiting for any hanging one to time out", async () => {
    const hostile = [await company(() => 'hang'), await company(() => 'hang'), await company(() => 'hang')];
    const healthy = await company(() => 200);
    for (let i = 0; i < 6; i++)
      for (const h of hostile)
        await emitWebhookEvent(t.app.services, h.who.company.id, 'tour.deleted', { tour: { id: `tour_h${i}` } });
    // Every hostile company has deliveries in flight (their requests arrived and hang), as many as the node lets them:
    // it is full (every slot hangs) or it has sent a hostile delivery back to the queue since six were hanging.
    for (const h of hostile) await h.receiver.waitFor(1);
    const hung = () => hostile.reduce((n, h) => n + h.receiver.received.length, 0);
    const turnedBack = async () =>
      (
        await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'webhook-delivery' AND state = 'completed'`.execute(
          t.app.services.db,
        )
      ).rows[0]!.n;
    await waitFor(async () => hung() >= 6, 'six hanging deliveries');
    const turnedBackBefore = await turnedBack();
    await waitFor(
      async () => hung() >= WEBHOOK_NODE_SLOTS || (await turnedBack()) > turnedBackBefore,
      'the hostile companies to hold every slot they may',
    );
    const settled = async () =>
      (
        await sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'PENDING'`.execute(
          t.app.services.db,
        )
      ).rows[0]!.n;
    expect(await settled()).toBe(0);
    const raised = performance.now();
    await emitWebhookEvent(t.app.services, healthy.who.company.id, 'tour.deleted', { tour: { id: 'tour_ok' } });
    await healthy.receiver.waitFor(1);
    const delayMs = performance.now() - raised;

    // It did not wait for a slot to free: no hanging delivery has settled, and the hostile ones never held every slot.
    expect(await settled(), 'the healthy delivery waited for a hanging one to time out').toBe(0);
    expect(hung()).toBeLessThan(WEBHOOK_NODE_SLOTS);
    for (const h of hostile) expect(h.receiver.received.length).toBeLessThanOrEqual(WEBHOOK_COMPANY_SLOTS);
    console.log(
      `webhook fairness, three hanging companies: the healthy delivery arrived ${delayMs.toFixed(0)} ms after it was raised (${hung()} hanging requests in flight); load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}`,
    );
  }, 120_000);
});
