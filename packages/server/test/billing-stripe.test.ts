import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { planById } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { FakeStripe } from './billing-fake-stripe.js';
import { billingSettled, deactivatedTours, insertTours, license } from './billing-helpers.js';
import { BILLING_TEXTS } from '../src/services/billing/checkout.js';

const SECRET_KEY = 'sk_test_roomwalk';
const WEBHOOK_SECRET = 'whsec_roomwalk_test_secret';
const CHECKOUT = 'mutation($input: PaymentCheckoutInput!) { paymentCheckout(input: $input) { url message error } }';
const PORTAL = 'mutation($input: BillingPortalSessionInput!) { billingPortalSession(input: $input) { url error } }';

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((x, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]),
  );
}

let eventSeq = 0;
function event(
  type: string,
  object: Record<string, unknown>,
  id = `evt_test_${++eventSeq}_${Math.random().toString(36).slice(2, 8)}`,
) {
  return {
    id,
    object: 'event',
    api_version: '2026-10-28',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null },
    type,
    data: { object },
  };
}

describe.each(DB_KINDS)('Stripe adapter on %s', (kind) => {
  let t: TestApp;
  const fake = new FakeStripe();
  let prices: Record<'entry' | 'basic' | 'pro', Record<string, any>>;

  async function postWebhook(payload: string, header: string): Promise<Response> {
    return fetch(`${t.url}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: payload,
    });
  }
  function sign(payload: string, timestamp = Math.floor(Date.now() / 1000)): string {
    return Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp });
  }
  /** A company whose Stripe customer is known to us (as after a first checkout). */
  async function customerFor(user: SeededUser) {
    const customer = fake.addCustomer({ company_id: user.company.id });
    await t.app.services.db
      .insertInto('billing_customers')
      .values({ company_id: user.company.id, provider: 'stripe', customer_id: customer.id })
      .execute();
    return customer;
  }

  beforeAll(async () => {
    await fake.start();
    const tours = fake.addProduct({ name: 'Roomwalk', description: 'Scroll-driven property tours' });
    const retired = fake.addProduct({ name: 'Old plan', active: false });
    prices = {
      entry: fake.addPrice({ product: tours, lookupKey: 'roomwalk_entry', unitAmount: 59_900 }),
      basic: fake.addPrice({
        product: tours,
        lookupKey: 'roomwalk_basic',
        tiers: [{ flat_amount: 179_900, unit_amount: 0, up_to: null }],
      }),
      pro: fake.addPrice({ product: tours, lookupKey: 'roomwalk_pro', unitAmount: 449_900 }),
    };
    fake.addPrice({ product: tours, lookupKey: null, unitAmount: 100 });
    fake.addPrice({ product: retired, lookupKey: 'roomwalk_offline', unitAmount: 1 });
    t = await startTestApp(kind, {
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: fake.url,
    });
  });
  afterAll(async () => {
    await t?.stop();
    await fake.stop();
  });

  it('answers price tiers from Stripe prices (lookup keys roomwalk_<plan>), allowances from the catalogue', async () => {
    const r = await t.gql(
      '{ priceTiers { priceId flatAmount unitAmount upTo currencyCode currencySymbol tierName description } }',
    );
    expect(r.data.priceTiers).toEqual([
      {
        priceId: 'price_free',
        flatAmount: 0,
        unitAmount: 0,
        upTo: 1,
        currencyCode: 'ZAR',
        currencySymbol: 'R',
        tierName: 'Free',
        description: planById('free')!.description,
      },
      {
        priceId: prices.entry.id,
        flatAmount: 59_900,
        unitAmount: 0,
        upTo: 5,
        currencyCode: 'ZAR',
        currencySymbol: 'R',
        tierName: 'Entry',
        description: 'Scroll-driven property tours',
      },
      {
        priceId: prices.basic.id,
        flatAmount: 179_900,
        unitAmount: 0,
        upTo: 20,
        currencyCode: 'ZAR',
        currencySymbol: 'R',
        tierName: 'Basic',
        description: 'Scroll-driven property tours',
      },
      {
        priceId: prices.pro.id,
        flatAmount: 449_900,
        unitAmount: 0,
        upTo: 60,
        currencyCode: 'ZAR',
        currencySymbol: 'R',
        tierName: 'Pro',
        description: 'Scroll-driven property tours',
      },
    ]);
    const req = fake.requests.find((q) => q.path === '/v1/prices')!;
    expect(Object.values(req.query.lookup_keys)).toEqual([
      'roomwalk_free',
      'roomwalk_entry',
      'roomwalk_basic',
      'roomwalk_pro',
    ]);
    expect(Object.values(req.query.expand)).toEqual(['data.product', 'data.tiers']);
  });

  it('creates a Checkout Session with an idempotency key, one customer, and answers its url', async () => {
    const admin = await seedUser(t.app, { plan: 'free' });
    const before = fake.requests.length;
    const r = await t.gql(CHECKOUT, { input: { priceId: prices.basic.id, quantity: 20 } }, admin.token);
    expect(r.data.paymentCheckout.error).toBeNull();
    expect(r.data.paymentCheckout.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const mine = fake.requests.slice(before);
    const customer = mine.find((q) => q.method === 'POST' && q.path === '/v1/customers')!;
    expect(customer.body).toMatchObject({
      email: admin.user.username,
      name: admin.company.name,
      metadata: { company_id: admin.company.id },
    });
    expect(customer.headers['idempotency-key']).toBe(`roomwalk-customer-${admin.company.id}`);
    const session = mine.find((q) => q.method === 'POST' && q.path === '/v1/checkout/sessions')!;
    expect(session.headers['idempotency-key']).toMatch(
      new RegExp(`^roomwalk-checkout-${admin.company.id}-${prices.basic.id}-\\d+$`),
    );
    expect(session.body).toMatchObject({
      mode: 'subscription',
      client_reference_id: admin.company.id,
      line_items: [{ price: prices.basic.id, quantity: '1' }],
      success_url: `${t.url}/profile/success`,
      cancel_url: `${t.url}/profile/cancel`,
      metadata: { company_id: admin.company.id, plan_id: 'basic' },
      subscription_data: { metadata: { company_id: admin.company.id, plan_id: 'basic' } },
    });
    expect(session.body.customer).toMatch(/^cus_/);

    // Asked again (double click): same key, same session; the customer is not created twice.
    const again = await t.gql(CHECKOUT, { input: { priceId: prices.basic.id, quantity: 20 } }, admin.token);
    expect(again.data.paymentCheckout.url).toBe(r.data.paymentCheckout.url);
    expect(fake.count('POST', '/v1/customers', (q) => q.body.metadata?.company_id === admin.company.id)).toBe(1);
    expect(fake.checkoutSessions.size).toBe(1);
  });

  it('answers message when the company already has a live subscription, even before its webhook arrived', async () => {
    const admin = await seedUser(t.app, { plan: 'free' });
    const customer = await customerFor(admin);
    fake.setSubscription({ customer: customer.id, price: prices.entry, status: 'active' });
    const r = await t.gql(CHECKOUT, { input: { priceId: prices.pro.id, quantity: 60 } }, admin.token);
    expect(r.data.paymentCheckout).toEqual({ url: null, message: BILLING_TEXTS.alreadySubscribed, error: null });
  });

  it('answers error (no stack, nothing changed) when Stripe refuses', async () => {
    const admin = await seedUser(t.app, { plan: 'free' });
    fake.failures.set('/v1/checkout/sessions', {
      status: 400,
      error: { type: 'invalid_request_error', message: 'No such price' },
    });
    const r = await t.gql(CHECKOUT, { input: { priceId: prices.entry.id } }, admin.token);
    expect(r.data.paymentCheckout).toEqual({ url: null, message: null, error: BILLING_TEXTS.providerFailed });
    expect((await license(t.app, admin.company.id)).plan_id).toBe('free');
  });

  it('opens the Stripe billing portal with the return URL, or answers error without a customer', async () => {
    const admin = await seedUser(t.app, { plan: 'free' });
    const none = await t.gql(PORTAL, { input: { returnStub: 'account/subscriptions' } }, admin.token);
    expect(none.data.billingPortalSession).toEqual({ url: null, error: BILLING_TEXTS.nothingToManage });
    const customer = await customerFor(admin);
    const r = await t.gql(PORTAL, { input: { returnStub: 'account/subscriptions' } }, admin.token);
    expect(r.data.billingPortalSession.url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_/);
    const req = fake.requests.filter((q) => q.path === '/v1/billing_portal/sessions').at(-1)!;
    expect(req.body).toEqual({ customer: customer.id, return_url: `${t.url}/account/subscriptions` });
  });

  it('serves no local checkout pages when Stripe is configured', async () => {
    expect((await fetch(`${t.url}/billing/checkout/cs_local_x`)).status).toBe(404);
  });

  describe('webhook', () => {
    it('accepts a valid signature, answers at once, and the queued job sets the licence from Stripe', async () => {
      const admin = await seedUser(t.app, { plan: 'free' });
      const customer = await customerFor(admin);
      const sub = fake.setSubscription({ customer: customer.id, price: prices.basic, status: 'active' });
      const payload = JSON.stringify(event('customer.subscription.created', sub));
      const res = await postWebhook(payload, sign(payload));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: true, handled: true, duplicate: false });
      await billingSettled(t.app);
      const l = await license(t.app, admin.company.id);
      expect(l).toMatchObject({
        plan_id: 'basic',
        plan_name: 'Basic',
        quantity: 20,
        upload_limit: 40,
        subscription_id: sub.id,
        end_date: null,
      });
      expect(new Date(l.period_start).getTime()).toBe(sub.items.data[0].current_period_start * 1000);
    });

    it('rejects a tampered body, a wrong secret and a missing header with 400, recording nothing', async () => {
      const admin = await seedUser(t.app, { plan: 'free' });
      const customer = await customerFor(admin);
      const sub = fake.setSubscription({ customer: customer.id, price: prices.pro, status: 'active' });
      const ev = event('customer.subscription.updated', sub);
      const payload = JSON.stringify(ev);
      const tampered = payload.replace('"status":"active"', '"status":"canceled"');
      expect(tampered).not.toBe(payload);
      expect((await postWebhook(tampered, sign(payload))).status).toBe(400);
      const wrong = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
      expect((await postWebhook(payload, wrong)).status).toBe(400);
      const missing = await fetch(`${t.url}/webhooks/stripe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: payload,
      });
      expect(missing.status).toBe(400);
      const rows = await t.app.services.db.selectFrom('billing_events').select('id').where('id', '=', ev.id).execute();
      expect(rows).toHaveLength(0);
    });

    it('rejects a signature older than 300 s and accepts one just inside the tolerance', async () => {
      const admin = await seedUser(t.app, { plan: 'free' });
      const customer = await customerFor(admin);
      const sub = fake.setSubscription({ customer: customer.id, price: prices.entry, status: 'active' });
      const stale = JSON.stringify(event('customer.subscription.updated', sub));
      expect((await postWebhook(stale, sign(stale, Math.floor(Date.now() / 1000) - 301))).status).toBe(400);
      const fresh = JSON.stringify(event('customer.subscription.updated', sub));
      expect((await postWebhook(fresh, sign(fresh, Math.floor(Date.now() / 1000) - 240))).status).toBe(200);
      await billingSettled(t.app);
      expect((await license(t.app, admin.company.id)).plan_id).toBe('entry');
    });

    it('handles an event replayed ten times exactly once', async () => {
      const admin = await seedUser(t.app, { plan: 'free' });
      const customer = await customerFor(admin);
      const sub = fake.setSubscription({ customer: customer.id, price: prices.pro, status: 'active' });
      const payload = JSON.stringify(
        event('invoice.paid', { id: 'in_test_1', object: 'invoice', customer: customer.id, subscription: sub.id }),
      );
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          postWebhook(payload, sign(payload)).then(async (r) => ({
            status: r.status,
            body: (await r.json()) as { duplicate: boolean },
          })),
        ),
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(answers.filter((a) => a.body.duplicate === false)).toHaveLength(1);
      await billingSettled(t.app);
      expect(fake.count('GET', '/v1/subscriptions', (q) => q.query.customer === customer.id)).toBe(1);
      const rows = await t.app.services.db
        .selectFrom('billing_events')
        .select('id')
        .where('customer_id', '=', customer.id)
        .execute();
      expect(rows).toHaveLength(1);
      expect((await license(t.app, admin.company.id)).plan_id).toBe('pro');
    });

    it('acknowledges event types it does not handle without queueing work', async () => {
      const payload = JSON.stringify(event('customer.created', { id: 'cus_x', object: 'customer' }));
      const res = await postWebhook(payload, sign(payload));
      expect(await res.json()).toEqual({ received: true, handled: false });
    });

    it('ends in the same licence whatever the order of four events (24 orders, final state read from Stripe)', async () => {
      const orders = permutations([0, 1, 2, 3]);
      expect(orders).toHaveLength(24);
      // Upgrade story: the event bodies show intermediate states; Stripe now holds an active Pro subscription.
      // Cancel story: Stripe now holds the subscription cancelled, so the company ends on Free with 1 active tour.
      const cases: Array<{ admin: SeededUser; subId: string; story: 'upgrade' | 'cancel'; payloads: string[] }> = [];
      for (const story of ['upgrade', 'cancel'] as const) {
        for (const order of orders) {
          const admin = await seedUser(t.app, { plan: story === 'cancel' ? 'basic' : 'free' });
          const customer = await customerFor(admin);
          if (story === 'cancel') await insertTours(t.app, { companyId: admin.company.id, userId: admin.user.id }, 3);
          const created = fake.setSubscription({ customer: customer.id, price: prices.entry, status: 'incomplete' });
          const snapshot = (over: Record<string, unknown>) => ({ ...structuredClone(created), ...over });
          const events =
            story === 'upgrade'
              ? [
                  event('checkout.session.completed', {
                    id: `cs_${created.id}`,
                    object: 'checkout.session',
                    customer: customer.id,
                    subscription: created.id,
                    metadata: { company_id: admin.company.id },
                  }),
                  event('customer.subscription.created', snapshot({ status: 'incomplete' })),
                  event('customer.subscription.updated', snapshot({ status: 'active' })),
                  event('invoice.paid', {
                    id: `in_${created.id}`,
                    object: 'invoice',
                    customer: customer.id,
                    subscription: created.id,
                  }),
                ]
              : [
                  event('customer.subscription.created', snapshot({ status: 'active' })),
                  event('customer.subscription.updated', snapshot({ status: 'active', cancel_at_period_end: true })),
                  event('customer.subscription.deleted', snapshot({ status: 'canceled' })),
                  event('invoice.paid', {
                    id: `in_${created.id}`,
                    object: 'invoice',
                    customer: customer.id,
                    subscription: created.id,
                  }),
                ];
          fake.setSubscription({
            id: created.id,
            customer: customer.id,
            price: story === 'upgrade' ? prices.pro : prices.basic,
            status: story === 'upgrade' ? 'active' : 'canceled',
            created: created.created,
          });
          cases.push({ admin, subId: created.id, story, payloads: order.map((i) => JSON.stringify(events[i])) });
        }
      }
      // Each company gets its four events in its own order; companies interleave.
      for (let step = 0; step < 4; step++) {
        const answers = await Promise.all(cases.map((c) => postWebhook(c.payloads[step]!, sign(c.payloads[step]!))));
        expect(answers.map((a) => a.status).every((s) => s === 200)).toBe(true);
      }
      await billingSettled(t.app, 60_000);
      for (const c of cases) {
        const l = await license(t.app, c.admin.company.id);
        if (c.story === 'upgrade')
          expect(l, c.payloads.join()).toMatchObject({ plan_id: 'pro', quantity: 60, subscription_id: c.subId });
        else {
          expect(l, c.payloads.join()).toMatchObject({
            plan_id: 'free',
            quantity: 1,
            subscription_id: null,
            end_date: null,
          });
          expect(await deactivatedTours(t.app, c.admin.company.id)).toHaveLength(2);
        }
      }
    });

    it('keeps the newest live subscription when an older one is deleted later', async () => {
      const admin = await seedUser(t.app, { plan: 'free' });
      const customer = await customerFor(admin);
      const old = fake.setSubscription({
        customer: customer.id,
        price: prices.entry,
        status: 'canceled',
        created: Math.floor(Date.now() / 1000) - 7200,
      });
      fake.setSubscription({ customer: customer.id, price: prices.basic, status: 'active' });
      const payload = JSON.stringify(event('customer.subscription.deleted', old));
      expect((await postWebhook(payload, sign(payload))).status).toBe(200);
      await billingSettled(t.app);
      expect((await license(t.app, admin.company.id)).plan_id).toBe('basic');
    });

    it('never lets a card subscription override an Offline License', async () => {
      const admin = await seedUser(t.app, { plan: 'offline' });
      const customer = await customerFor(admin);
      const sub = fake.setSubscription({ customer: customer.id, price: prices.entry, status: 'active' });
      const payload = JSON.stringify(event('customer.subscription.created', sub));
      await postWebhook(payload, sign(payload));
      await billingSettled(t.app);
      expect((await license(t.app, admin.company.id)).plan_id).toBe('offline');
    });
  });
});
