/**
 * Webhooks against real receivers on loopback: signed per Standard Webhooks (checked with the
 * `standardwebhooks` verifier), retried on failure and timeout with the same webhook-id, logged per attempt, replayed,
 * disabled after failing too long (admins mailed), and never sent to the product's own network unless allowed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { ERROR_CODES } from '@roomwalk/shared';
import { loadConfig } from '../src/config.js';
import { checkWebhookUrl } from '../src/services/developer/outbound.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedProcessedTour, waitFor } from './fixtures/tours.js';
import { startReceiver, type Answer, type Receiver } from './support/webhook-receiver.js';
import { LEAD_MUTATION, leadInput, seedTour } from './fixtures/live-helpers.js';

const CREATE = `mutation($input: WebhookEndpointCreateInput!) { webhookEndpointCreate(input: $input) { secret endpoint { id url events enabled description } } }`;
const UPDATE = `mutation($input: WebhookEndpointUpdateInput!) { webhookEndpointUpdate(input: $input) { id enabled disabledReason events } }`;
const LIST = `query { webhookEndpoints { id url events enabled disabledReason secret } }`;
const SEND_TEST = `mutation($id: ID!) { webhookEndpointSendTest(id: $id) }`;
const ROTATE = `mutation($id: ID!) { webhookEndpointRotateSecret(id: $id) { secret } }`;
const DELETE = `mutation($id: ID!) { webhookEndpointDelete(id: $id) }`;
const REPLAY = `mutation($id: ID!) { webhookDeliveryReplay(id: $id) }`;
const DELIVERIES = `query($id: ID!, $first: Int, $after: String) { webhookDeliveries(endpointId: $id, first: $first, after: $after) {
  edges { cursor node { id eventId eventType attempt status statusCode durationMs error responseExcerpt nextRetryAt } } pageInfo { hasNextPage endCursor } } }`;
const TOUR_DELETE = `mutation($id: ID!) { tourDelete(tourId: $id) { success } }`;

interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  attempt: number;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  nextRetryAt: string | null;
}

describe('webhooks', () => {
  let t: TestApp;
  let admin: SeededUser;
  const receivers: Receiver[] = [];
  const receiver = async (answer?: (n: number) => Answer) => {
    const r = await startReceiver(answer);
    receivers.push(r);
    return r;
  };
  beforeAll(async () => {
    // Retries a second apart so the schedule runs within the test; the timeout short so a hanging receiver fails fast.
    t = await startTestApp('pglite', {
      WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1,1' as never,
      WEBHOOK_TIMEOUT_SECONDS: 1.5,
    });
    admin = await seedUser(t.app, { plan: 'pro' });
  });
  afterEach(async () => {
    t.app.config.WEBHOOK_ALLOW_LOOPBACK = true;
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await t?.stop();
  });

  async function endpoint(url: string, events: string[] = ['TOUR_DELETED'], who = admin) {
    const r = await t.gql(CREATE, { input: { url, events, description: 'CRM' } }, who.token);
    expect(r.errors).toBeUndefined();
    return r.data.webhookEndpointCreate as { secret: string; endpoint: { id: string } };
  }
  const deliveries = async (endpointId: string, who = admin): Promise<Delivery[]> => {
    const r = await t.gql(DELIVERIES, { id: endpointId, first: 50 }, who.token);
    expect(r.errors).toBeUndefined();
    return r.data.webhookDeliveries.edges.map((e: { node: Delivery }) => e.node);
  };
  const settled = (endpointId: string, n: number) =>
    waitFor(
      async () => {
        const d = await deliveries(endpointId);
        return d.length >= n && d.every((x) => x.status !== 'PENDING') ? d : null;
      },
      `${n} settled deliveries`,
      60_000,
      100,
    );
  async function deleteATour(who = admin) {
    const tour = await seedProcessedTour(t, who);
    expect((await t.gql(TOUR_DELETE, { id: tour.id }, who.token)).errors).toBeUndefined();
    return tour.id;
  }

  it('sends a test event the Standard Webhooks verifier accepts, and logs the delivery', async () => {
    const r = await receiver();
    const { secret, endpoint: ep } = await endpoint(r.url);
    expect(secret).toMatch(/^whsec_/);
    const deliveryId = (await t.gql(SEND_TEST, { id: ep.id }, admin.token)).data.webhookEndpointSendTest;
    const [got] = await r.waitFor(1);
    const payload = new Webhook(secret).verify(got!.body, got!.headers) as { type: string; data: { message: string } };
    expect(payload.type).toBe('webhook.test');
    expect(got!.headers['webhook-id']).toMatch(/^evt_/);
    // A wrong secret does not verify.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(got!.body, got!.headers),
    ).toThrow();
    const [d] = await settled(ep.id, 1);
    expect(d).toMatchObject({
      id: deliveryId,
      eventType: 'webhook.test',
      attempt: 1,
      status: 'SUCCEEDED',
      statusCode: 200,
      responseExcerpt: 'thanks',
      eventId: got!.headers['webhook-id'],
    });
  });

  it('retries a receiver that fails twice: delivered on attempt 3 with the same webhook-id, each attempt logged', async () => {
    const r = await receiver((n) => (n < 2 ? 500 : 204));
    const { secret, endpoint: ep } = await endpoint(r.url);
    const tourId = await deleteATour();
    const got = await r.waitFor(3);
    const ids = new Set(got.map((g) => g.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const g of got)
      expect(new Webhook(secret).verify(g.body, g.headers)).toMatchObject({
        type: 'tour.deleted',
        data: { tour: { id: tourId } },
      });
    const log = await settled(ep.id, 3);
    expect(log.map((d) => [d.attempt, d.status, d.statusCode])).toEqual([
      [3, 'SUCCEEDED', 204],
      [2, 'FAILED', 500],
      [1, 'FAILED', 500],
    ]);
    expect(log[1]!.nextRetryAt).not.toBeNull();
    expect(log[1]!.error).toBe('Answered 500.');
  });

  it('fails an attempt that gets no answer within the timeout, and retries it', async () => {
    const r = await receiver((n) => (n === 0 ? 'hang' : 200));
    const { endpoint: ep } = await endpoint(r.url);
    await deleteATour();
    await r.waitFor(2);
    const log = await settled(ep.id, 2);
    expect(log.map((d) => [d.attempt, d.status])).toEqual([
      [2, 'SUCCEEDED'],
      [1, 'FAILED'],
    ]);
    expect(log[1]!.error).toMatch(/No answer within 1.5 s/);
  });

  it('announces a live viewing lead with the lead and the host link of its session', async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const r = await receiver();
    const { secret } = await endpoint(r.url, ['LEAD_CREATED'], owner);
    const tour = await seedTour(t.app, owner);
    const lead = await t.gql(LEAD_MUTATION, {
      input: leadInput(tour.globalId, { name: 'Vera', email: 'vera@example.com' }),
    });
    expect(lead.errors).toBeUndefined();
    const [got] = await r.waitFor(1);
    const event = new Webhook(secret).verify(got!.body, got!.headers) as {
      type: string;
      data: { lead: Record<string, unknown>; liveViewing: { link: string } | null };
    };
    expect(event.type).toBe('lead.created');
    expect(event.data.lead).toMatchObject({
      id: lead.data.tourLeadCreate.tourLead.id,
      tourId: tour.globalId,
      name: 'Vera',
      email: 'vera@example.com',
      leadType: 'LIVE_VIEWING',
    });
    expect(event.data.liveViewing?.link).toContain(`session=${lead.data.tourLeadCreate.tourLead.viewingSessionId}`);
  });

  it('does not follow redirects', async () => {
    const r = await receiver(() => 302);
    const { endpoint: ep } = await endpoint(r.url);
    await t.gql(SEND_TEST, { id: ep.id }, admin.token);
    const [d] = await settled(ep.id, 1);
    expect(d).toMatchObject({ status: 'FAILED', statusCode: 302, error: 'Redirect (302) not followed.' });
  });

  it('replays a delivery from the log with the same webhook-id', async () => {
    const r = await receiver();
    const { endpoint: ep } = await endpoint(r.url);
    await deleteATour();
    const [first] = await r.waitFor(1);
    const [d] = await settled(ep.id, 1);
    const replayId = (await t.gql(REPLAY, { id: d!.id }, admin.token)).data.webhookDeliveryReplay;
    const got = await r.waitFor(2);
    expect(got[1]!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    const log = await settled(ep.id, 2);
    expect(log[0]).toMatchObject({ id: replayId, attempt: 2, status: 'SUCCEEDED' });
  });

  it('sends only subscribed events, signs with a rotated secret, and stops for a deleted endpoint', async () => {
    const r = await receiver();
    const { endpoint: ep } = await endpoint(r.url, ['TOUR_PROCESSED']);
    await deleteATour(); // tour.deleted: not subscribed
    const { secret } = (await t.gql(ROTATE, { id: ep.id }, admin.token)).data.webhookEndpointRotateSecret;
    await t.gql(SEND_TEST, { id: ep.id }, admin.token);
    const [got] = await r.waitFor(1);
    expect(new Webhook(secret).verify(got!.body, got!.headers)).toMatchObject({ type: 'webhook.test' });
    expect(r.received).toHaveLength(1);
    const listed = (await t.gql(LIST, {}, admin.token)).data.webhookEndpoints.find(
      (e: { id: string }) => e.id === ep.id,
    );
    expect(listed).toMatchObject({ events: ['TOUR_PROCESSED'], secret, enabled: true });
    expect((await t.gql(DELETE, { id: ep.id }, admin.token)).data.webhookEndpointDelete).toBe(true);
    expect((await t.gql(DELIVERIES, { id: ep.id }, admin.token)).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
  });

  it('disables an endpoint that keeps failing and mails the company admins', async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const r = await receiver(() => 503);
    const { endpoint: ep } = await endpoint(r.url, ['TOUR_DELETED'], owner);
    t.app.config.WEBHOOK_DISABLE_AFTER_HOURS = 0;
    try {
      await deleteATour(owner);
      await waitFor(
        async () => !(await t.gql(LIST, {}, owner.token)).data.webhookEndpoints[0].enabled,
        'the endpoint disabled',
        30_000,
      );
    } finally {
      t.app.config.WEBHOOK_DISABLE_AFTER_HOURS = 72;
    }
    const [listed] = (await t.gql(LIST, {}, owner.token)).data.webhookEndpoints;
    expect(listed.disabledReason).toMatch(/failed for 0 hours/);
    const mail = await waitFor(
      () =>
        t.app.services.db
          .selectFrom('mail_outbox')
          .selectAll()
          .where('to_address', '=', owner.user.username)
          .where('subject', '=', 'A Roomwalk webhook endpoint was disabled')
          .executeTakeFirst(),
      'the admin mail',
      30_000,
    );
    expect(JSON.stringify(mail)).toContain(r.url);
    // Disabled: nothing more is sent, and replay asks to enable it first. Enabling again works.
    const [d] = await deliveries(ep.id, owner);
    expect((await t.gql(REPLAY, { id: d!.id }, owner.token)).errors?.[0]?.message).toMatch(/Enable it/);
    expect(
      (await t.gql(UPDATE, { input: { id: ep.id, enabled: true } }, owner.token)).data.webhookEndpointUpdate,
    ).toMatchObject({ enabled: true, disabledReason: null });
  });

  it("refuses endpoints on the product's own network when loopback is not allowed, at saving and at sending", async () => {
    t.app.config.WEBHOOK_ALLOW_LOOPBACK = false;
    for (const url of [
      'http://127.0.0.1:9/x',
      'http://localhost/x',
      'http://10.0.0.5/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/',
      'http://0.0.0.0/',
      'http://[fd00::1]/',
    ]) {
      const r = await t.gql(CREATE, { input: { url, events: ['TOUR_DELETED'] } }, admin.token);
      expect(r.errors?.[0]?.extensions, url).toMatchObject({ code: ERROR_CODES.BAD_USER_INPUT, field: 'url' });
      expect(r.errors?.[0]?.message).toMatch(/private or local network|could not be found/);
    }
    for (const url of ['ftp://example.com/', 'not a url', 'http://user:pw@example.com/']) {
      expect(
        (await t.gql(CREATE, { input: { url, events: ['TOUR_DELETED'] } }, admin.token)).errors?.[0]?.extensions?.code,
        url,
      ).toBe(ERROR_CODES.BAD_USER_INPUT);
    }
    // Saved while allowed, sent after: the connection itself is refused (the same check after DNS, as a rebinding name
    // would be).
    t.app.config.WEBHOOK_ALLOW_LOOPBACK = true;
    const r = await receiver();
    const { endpoint: ep } = await endpoint(r.url);
    t.app.config.WEBHOOK_ALLOW_LOOPBACK = false;
    await t.gql(SEND_TEST, { id: ep.id }, admin.token);
    const [d] = await settled(ep.id, 1);
    expect(d).toMatchObject({ status: 'FAILED', statusCode: null });
    expect(d!.error).toMatch(/private or local network/);
    expect(r.received).toHaveLength(0);
  });

  it('takes https only in production and refuses loopback there by default', async () => {
    const prod = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) });
    expect(prod.WEBHOOK_ALLOW_LOOPBACK).toBe(false);
    await expect(checkWebhookUrl(prod, 'http://93.184.216.34/hook')).rejects.toThrow(/https:\/\//);
    await expect(checkWebhookUrl(prod, 'https://127.0.0.1/hook')).rejects.toThrow(/private or local/);
    await expect(checkWebhookUrl(prod, 'https://93.184.216.34/hook')).resolves.toBe('https://93.184.216.34/hook');
  });

  it('is for admins on Pro: members and Basic companies are refused, and keys cannot manage webhooks', async () => {
    const member = await seedUser(t.app, { companyId: admin.company.id });
    expect((await t.gql(LIST, {}, member.token)).errors?.[0]?.extensions?.code).toBe(ERROR_CODES.FORBIDDEN);
    const basic = await seedUser(t.app, { plan: 'basic' });
    expect((await t.gql(LIST, {}, basic.token)).errors?.[0]?.extensions?.code).toBe(ERROR_CODES.PLAN_REQUIRED);
    const other = await seedUser(t.app, { plan: 'pro' });
    const r = await receiver();
    const { endpoint: ep } = await endpoint(r.url);
    expect((await t.gql(SEND_TEST, { id: ep.id }, other.token)).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
    const bad = await t.gql(CREATE, { input: { url: r.url, events: [] } }, admin.token);
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: ERROR_CODES.BAD_USER_INPUT, field: 'events' });
  });
});
