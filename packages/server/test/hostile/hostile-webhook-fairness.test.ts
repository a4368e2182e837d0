/**
 * One company cannot slow another's webhooks. Company A's endpoint hangs for the whole timeout on every
 * delivery and A has a backlog of events; company B's delivery, raised after, must not wait for A's (before the fix:
 * 1.4 s became 38.7 s, every delivery slot held by A). And "Send test" cannot be pressed without limit.
 */
import os from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { WEBHOOK_COMPANY_SLOTS, emitWebhookEvent } from '../../src/services/developer/webhooks.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
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
