/**
 * The local checkout and billing portal in Debian's Chromium: no axe-core violations, and the whole flow done with
 * the keyboard only (Tab, typing, Enter, arrow keys), a declined card included.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { billingSettled, license } from './billing-helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const CHECKOUT = 'mutation($input: PaymentCheckoutInput!) { paymentCheckout(input: $input) { url message error } }';
const PORTAL = 'mutation($input: BillingPortalSessionInput!) { billingPortalSession(input: $input) { url error } }';

async function axeViolations(page: Page): Promise<Array<{ id: string; nodes: unknown[] }>> {
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const g = globalThis as any;
    const r = await g.axe.run(g.document, { resultTypes: ['violations'] });
    return r.violations.map((v: any) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n: any) => n.target) }));
  });
}

/** The focused element's id (or tag), read in the page. */
const focusedId = (page: Page) =>
  page.evaluate(() => {
    const el = (globalThis as any).document.activeElement;
    return (el?.id || el?.tagName) as string;
  });
const focusedText = (page: Page) =>
  page.evaluate(() => (globalThis as any).document.activeElement?.textContent as string);

describe.skipIf(!fs.existsSync(CHROMIUM) || !DB_KINDS.includes('pglite'))('local billing pages in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let admin: SeededUser;

  beforeAll(async () => {
    t = await startTestApp('pglite');
    admin = await seedUser(t.app, { plan: 'free' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('checkout: accessible, and paid with the keyboard alone after a declined card', async () => {
    const { url } = (await t.gql(CHECKOUT, { input: { priceId: 'price_entry', quantity: 5 } }, admin.token)).data
      .paymentCheckout;
    // axe is injected as an inline script, which the page's own CSP rightly forbids.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(url);
    expect(await page.title()).toBe('Subscribe to Entry - Roomwalk');
    expect(await axeViolations(page)).toEqual([]);

    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('cardNumber');
    await page.keyboard.type('4000 0000 0000 0002');
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('expiry');
    await page.keyboard.type('12 / 40');
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('cvc');
    await page.keyboard.type('123');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);

    // Declined: the message is announced (role=alert) and has focus; the form is still there.
    expect(await focusedId(page)).toBe('form-error');
    expect(await page.getByRole('alert').innerText()).toContain('Your card was declined.');
    expect(await axeViolations(page)).toEqual([]);

    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('cardNumber');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('4242 4242 4242 4242');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Pay R499 and subscribe');
    await Promise.all([page.waitForURL(`${t.url}/profile/success`), page.keyboard.press('Enter')]);
    await context.close();

    await billingSettled(t.app);
    expect((await license(t.app, admin.company.id)).plan_id).toBe('entry');
  });

  it('billing portal: accessible, plan changed with the keyboard alone', async () => {
    const { url } = (await t.gql(PORTAL, { input: { returnStub: 'account/subscriptions' } }, admin.token)).data
      .billingPortalSession;
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(url);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Manage your plan');
    expect(await axeViolations(page)).toEqual([]);

    // First stop is the plan choice (Basic); the arrow key moves to Pro; Tab reaches the button.
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('plan-basic');
    await page.keyboard.press('ArrowDown');
    expect(await focusedId(page)).toBe('plan-pro');
    expect(await page.isChecked('#plan-pro')).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Change plan');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(await page.getByRole('status').innerText()).toBe('Your plan was changed.');
    expect(await axeViolations(page)).toEqual([]);
    await context.close();

    await billingSettled(t.app);
    expect((await license(t.app, admin.company.id)).plan_id).toBe('pro');
  });
});
