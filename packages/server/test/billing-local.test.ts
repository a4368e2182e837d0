import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, planById } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { billingSettled, deactivatedTours, insertTours, license, postForm } from './billing-helpers.js';
import { BILLING_TEXTS } from '../src/services/billing/checkout.js';
import { CARD_MESSAGES, LOCAL_DECLINE_CARDS } from '../src/services/billing/local-cards.js';
import { expireLicenses } from '../src/services/billing/sync.js';

const CHECKOUT = 'mutation($input: PaymentCheckoutInput!) { paymentCheckout(input: $input) { url message error } }';
const PORTAL = 'mutation($input: BillingPortalSessionInput!) { billingPortalSession(input: $input) { url error } }';
const LICENSE = '{ me { user { company { license { planName quantity uploadLimit subscriptionId endDate } } } } }';

describe.each(DB_KINDS)('local payment provider on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('lists the catalogue plans as price tiers with the spec fields', async () => {
    const r = await t.gql('{ priceTiers { priceId flatAmount unitAmount upTo currencyCode currencySymbol tierName } }');
    expect(r.data.priceTiers).toEqual([
      {
        priceId: 'price_free',
        flatAmount: 0,
        unitAmount: 0,
        upTo: 1,
        currencyCode: 'ZAR',
        currencySymbol: 'R',
        tierName: 'Free',
      },
      {
        priceId: 'price_entry',
        flatAmount: 49_900,
        unitAmount: 0,
        upTo: 5,
        currencyCode: 'ZAR',
        currencySymbol: 'R',
        tierName: 'Entry',
      },
      {
        priceId: 'price_basic',
        flatAmount: 149_900,
        unitAmount: 0,
        upTo: 20,
        currencyCode: 'ZAR',
        currencySymbol: 'R',
        tierName: 'Basic',
      },
      {
        priceId: 'price_pro',
        flatAmount: 399_900,
        unitAmount: 0,
        upTo: 60,
        currencyCode: 'ZAR',
        currencySymbol: 'R',
        tierName: 'Pro',
      },
    ]);
  });

  it('lets only a company admin buy', async () => {
    const admin = await seedUser(t.app, { plan: 'free' });
    const member = await seedUser(t.app, { companyId: admin.company.id });
    expect(
      (await t.gql(CHECKOUT, { input: { priceId: 'price_entry', quantity: 5 } })).errors?.[0]?.extensions?.code,
    ).toBe(ERROR_CODES.UNAUTHENTICATED);
    expect(
      (await t.gql(CHECKOUT, { input: { priceId: 'price_entry', quantity: 5 } }, member.token)).errors?.[0]?.extensions
        ?.code,
    ).toBe(ERROR_CODES.FORBIDDEN);
    expect(
      (await t.gql(PORTAL, { input: { returnStub: 'account' } }, member.token)).errors?.[0]?.extensions?.code,
    ).toBe(ERROR_CODES.FORBIDDEN);
  });

  it('answers error for an unknown price or a bad quantity, and changes nothing', async () => {
    const admin = await seedUser(t.app, { plan: 'free' });
    const unknown = await t.gql(CHECKOUT, { input: { priceId: 'price_gold' } }, admin.token);
    expect(unknown.data.paymentCheckout).toEqual({ url: null, message: null, error: BILLING_TEXTS.unknownPrice });
    const offline = await t.gql(CHECKOUT, { input: { priceId: 'price_offline' } }, admin.token);
    expect(offline.data.paymentCheckout.error).toBe(BILLING_TEXTS.unknownPrice);
    const qty = await t.gql(CHECKOUT, { input: { priceId: 'price_entry', quantity: -3 } }, admin.token);
    expect(qty.data.paymentCheckout.error).toBe(BILLING_TEXTS.badQuantity);
    const n = await t.app.services.db
      .selectFrom('local_checkout_sessions')
      .select('id')
      .where('company_id', '=', admin.company.id)
      .execute();
    expect(n).toHaveLength(0);
  });

  it('runs checkout, decline, payment, portal change, cancel and expiry end to end over HTTP', async () => {
    const admin = await seedUser(t.app, { plan: 'free' });
    const companyId = admin.company.id;
    const tours = await insertTours(t.app, { companyId, userId: admin.user.id }, 8);
    // The Free Trial allows 1 active tour: pretend the seven older ones were switched off by an earlier downgrade.
    await t.app.services.db
      .updateTable('tours')
      .set({ deactivated_at: new Date() })
      .where('id', 'in', tours.slice(0, 7))
      .execute();

    const first = await t.gql(CHECKOUT, { input: { priceId: 'price_basic', quantity: 20 } }, admin.token);
    expect(first.data.paymentCheckout.error).toBeNull();
    expect(first.data.paymentCheckout.message).toBeNull();
    const url: string = first.data.paymentCheckout.url;
    expect(url).toMatch(new RegExp(`^${t.url}/billing/checkout/cs_local_[A-Za-z0-9_-]+$`));
    // A double click reuses the same checkout.
    const again = await t.gql(CHECKOUT, { input: { priceId: 'price_basic', quantity: 20 } }, admin.token);
    expect(again.data.paymentCheckout.url).toBe(url);

    const pageRes = await fetch(url);
    expect(pageRes.status).toBe(200);
    expect(pageRes.headers.get('content-type')).toMatch(/text\/html/);
    expect(pageRes.headers.get('cache-control')).toBe('no-store');
    const html = await pageRes.text();
    expect(html).toContain('Subscribe to Basic');
    expect(html).toContain('R1 499 / month');
    expect(html).toMatch(/<label for="cardNumber">Card number<\/label>/);

    // Field errors come back on the page, with nothing paid.
    const invalid = await postForm(url, { cardNumber: '4242 4242 4242 4241', expiry: '13/30', cvc: '' });
    expect(invalid.status).toBe(400);
    const invalidHtml = await invalid.text();
    expect(invalidHtml).toContain(CARD_MESSAGES.numberInvalid);
    expect(invalidHtml).toContain(CARD_MESSAGES.cvcRequired);
    expect(invalidHtml).toContain('aria-invalid="true"');

    // Every documented decline number is declined with its message.
    for (const [number, message] of Object.entries(LOCAL_DECLINE_CARDS)) {
      const declined = await postForm(url, {
        cardNumber: number.replace(/(\d{4})(?=\d)/g, '$1 '),
        expiry: '12 / 40',
        cvc: '123',
      });
      expect(declined.status).toBe(402);
      expect(await declined.text()).toContain(message);
    }
    expect((await license(t.app, companyId)).plan_id).toBe('free');

    const paid = await postForm(url, { cardNumber: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${t.url}/profile/success`);
    // A second submit of the same checkout pays nothing more.
    const twice = await postForm(url, { cardNumber: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' });
    expect(twice.status).toBe(303);
    const subs = await t.app.services.db
      .selectFrom('local_subscriptions')
      .selectAll()
      .where('company_id', '=', companyId)
      .execute();
    expect(subs).toHaveLength(1);

    await billingSettled(t.app);
    const basic = planById('basic')!;
    const after = await t.gql(LICENSE, {}, admin.token);
    expect(after.data.me.user.company.license).toMatchObject({
      planName: 'Basic',
      quantity: basic.upTo,
      uploadLimit: basic.upTo * 2,
      subscriptionId: subs[0]!.id,
      endDate: null,
    });
    // Roles follow the plan on the next request with the same token.
    const auth = await (await import('../src/services/resolve-auth.js')).resolveAuth(
      t.app.services,
      `Bearer ${admin.token}`,
    );
    expect(auth?.roles).toContain('basic');
    // An upgrade does not switch tours back on by itself: the owner reactivates them.
    expect(await deactivatedTours(t.app, companyId)).toHaveLength(7);

    // With a live subscription, buying again answers a message (the console opens the manage dialog).
    const third = await t.gql(CHECKOUT, { input: { priceId: 'price_pro', quantity: 60 } }, admin.token);
    expect(third.data.paymentCheckout).toEqual({ url: null, message: BILLING_TEXTS.alreadySubscribed, error: null });

    // Billing portal: returns to the stub under the public URL; bad stubs are refused.
    const bad = await t.gql(PORTAL, { input: { returnStub: '//evil.example/x' } }, admin.token);
    expect(bad.data.billingPortalSession).toEqual({ url: null, error: BILLING_TEXTS.badReturnStub });
    const portal = await t.gql(PORTAL, { input: { returnStub: 'account/subscriptions' } }, admin.token);
    const portalUrl: string = portal.data.billingPortalSession.url;
    expect(portalUrl).toMatch(new RegExp(`^${t.url}/billing/portal/bps_local_`));
    const portalHtml = await (await fetch(portalUrl)).text();
    expect(portalHtml).toContain(`href="${t.url}/account/subscriptions"`);
    expect(portalHtml).toContain('Card ending in 4242');

    // Downgrade to Entry (5 tours): the newest 5 of the 8... only 1 is active now, so nothing more is switched off.
    await t.app.services.db
      .updateTable('tours')
      .set({ deactivated_at: null })
      .where('company_id', '=', companyId)
      .execute();
    const change = await postForm(portalUrl, { action: 'change', priceId: 'price_entry' });
    expect(change.status).toBe(303);
    expect(change.headers.get('location')).toMatch(/notice=changed$/);
    await billingSettled(t.app);
    const entry = await license(t.app, companyId);
    expect(entry).toMatchObject({ plan_id: 'entry', quantity: 5, upload_limit: 10, end_date: null });
    expect(await deactivatedTours(t.app, companyId)).toEqual(tours.slice(0, 3));
    // The billing month keeps its anchor on a plan change: the monthly counters carry on.
    expect(new Date(entry.period_start).getTime()).toBe(new Date(subs[0]!.current_period_start).getTime());

    // Cancel: the plan stays until the end of the paid month, then the sweep moves the company to Free.
    const cancel = await postForm(portalUrl, { action: 'cancel' });
    expect(cancel.headers.get('location')).toMatch(/notice=canceled$/);
    await billingSettled(t.app);
    const canceling = await license(t.app, companyId);
    expect(canceling.plan_id).toBe('entry');
    expect(canceling.end_date).not.toBeNull();
    expect(new Date(canceling.end_date!).getTime()).toBeGreaterThan(Date.now());

    const afterEnd = new Date(new Date(canceling.end_date!).getTime() + 1000);
    expect(await expireLicenses(t.app.services, afterEnd)).toBe(1);
    const free = await license(t.app, companyId);
    expect(free).toMatchObject({
      plan_id: 'free',
      plan_name: 'Free Trial',
      quantity: 1,
      upload_limit: 2,
      subscription_id: null,
      end_date: null,
    });
    expect(await deactivatedTours(t.app, companyId)).toEqual(tours.slice(0, 7));
    // Nothing left to do on a second sweep.
    expect(await expireLicenses(t.app.services, afterEnd)).toBe(0);
  });

  it('answers error from billingPortalSession when there is nothing to manage', async () => {
    const admin = await seedUser(t.app, { plan: 'free' });
    const r = await t.gql(PORTAL, { input: { returnStub: 'account/subscriptions' } }, admin.token);
    expect(r.data.billingPortalSession).toEqual({ url: null, error: BILLING_TEXTS.nothingToManage });
  });

  it('answers 404 on the Stripe webhook when Stripe is not configured', async () => {
    const res = await fetch(`${t.url}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
      body: '{}',
    });
    expect(res.status).toBe(404);
  });

  it('shows clear pages for unknown checkout and portal links', async () => {
    const a = await fetch(`${t.url}/billing/checkout/cs_local_nope`);
    expect(a.status).toBe(404);
    expect(await a.text()).toContain('This checkout link is not valid');
    const b = await fetch(`${t.url}/billing/portal/bps_local_nope`);
    expect(b.status).toBe(404);
  });
});
