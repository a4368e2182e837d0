/**
 * The APIs & Webhooks journey against the real server, real ffmpeg and a real receiver on 127.0.0.1: a Free
 * admin meets the plan gate, upgrades to Pro through the local checkout, creates an API key (copied from its dialog)
 * and a webhook endpoint for tour.processed, sends a test event and sees it Succeeded in the log; then, as the
 * integration, uploads a generated 11 s video through the API with only the key, receives a `tour.processed` the
 * Standard Webhooks verifier accepts naming that tour, and sees that delivery in the console's log; finally revokes the
 * key and the API refuses it (401). The page is checked with axe on desktop and again at 390x844 on a touch phone.
 */
import fs from 'node:fs/promises';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { ACCOUNT_NOTES, DEV_TURNSTILE_TOKEN, ERROR_TEXTS, NOTICES } from '@roomwalk/shared';
import { DEVELOPER_TEXTS } from '../src/screens/developers/developer-rules.js';
import { dialog, mailLink, pathOf, screen } from './support.js';
import { phoneVideo } from './support/phone-videos.js';
import { startReceiver, verify, type Receiver } from './support/webhook-receiver.js';

test.describe.configure({ mode: 'serial' });

const stamp = Date.now().toString(36);
const admin = { email: `dev-${stamp}@example.com`, password: 'Walkthrough1', name: 'Dineo', surname: 'Developer' };

let receiver: Receiver;
let context: BrowserContext;
let page: Page;
let apiKey = '';
let signingSecret = '';
let tourId = '';

test.beforeAll(async ({ browser }) => {
  receiver = await startReceiver();
  context = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  page = await context.newPage();
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
});
test.afterAll(async () => {
  await context?.close();
  await receiver?.close();
});

/** POST /query as the integration would: with the API key as a Bearer token. */
async function asIntegration<T>(p: Page, query: string, variables: Record<string, unknown>, key: string) {
  const res = await p.request.post('/query', {
    data: { query, variables },
    headers: { authorization: `Bearer ${key}` },
  });
  const body = (await res.json().catch(() => ({}))) as {
    data?: T;
    errors?: Array<{ message: string; extensions?: { code?: string } }>;
  };
  return { status: res.status(), data: body.data, errors: body.errors };
}

async function logIn(p: Page) {
  await p.goto('/login');
  await p.getByLabel('Email').fill(admin.email);
  await p.getByLabel('Password').fill(admin.password);
  await p.getByRole('button', { name: 'Log in with email' }).click();
  await p.waitForURL((u) => u.pathname === '/');
}

/** The label of the dialog holding the focus (the sl-dialog host, or an element inside it). */
const focusedDialog = (p: Page) =>
  p.evaluate(() => document.activeElement?.closest('sl-dialog')?.getAttribute('label') ?? null);

const snackbar = (p: Page, text: string) => expect(p.locator('.snackbar-region')).toContainText(text);
const endpointCard = (p: Page) => p.getByTestId('webhook-endpoint').filter({ hasText: receiver.url });

test('a Free admin meets the plan gate and upgrades to Pro', async () => {
  await page.request.post('/query', {
    data: {
      query: 'mutation($input: UserRegisterInput!) { userRegister(input: $input) { id } }',
      variables: {
        input: {
          username: admin.email,
          password: admin.password,
          name: admin.name,
          surname: admin.surname,
          acceptedTerms: true,
          turnstileToken: DEV_TURNSTILE_TOKEN,
        },
      },
    },
  });
  await page.goto(pathOf(await mailLink(page, admin.email, /\/account\/activate\?token=/)));
  await expect(page.getByText(ERROR_TEXTS.activationSuccess)).toBeVisible();
  await logIn(page);

  await page.goto('/account');
  await page.getByRole('button', { name: 'APIs & Webhooks' }).click();
  await page.waitForURL('**/account/developers');
  const gate = dialog(page, 'Not Available');
  await expect(gate.getByTestId('developers-gate')).toHaveText(DEVELOPER_TEXTS.planRequired);
  await screen(page, 'developers-plan-gate');
  await gate.getByRole('button', { name: 'Upgrade' }).click();
  await page.waitForURL('**/account/subscriptions');

  await page.getByRole('article', { name: 'Pro' }).getByRole('button', { name: 'Activate Plan' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/account/subscriptions'), { timeout: 10_000 });
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry date (MM / YY)').fill('12 / 39');
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByRole('button', { name: /and subscribe/ }).click();
  await page.waitForURL('**/profile/success');
  await expect(page.getByTestId('plan-name')).toHaveText('Pro');
  await expect(page.getByTestId('payment-return')).toHaveText(ACCOUNT_NOTES.paymentSuccess);
});

test('create an API key and copy its secret from the dialog', async () => {
  await page.goto('/account');
  await page.getByRole('button', { name: 'APIs & Webhooks' }).click();
  await expect(page.getByRole('heading', { name: DEVELOPER_TEXTS.title, level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'API keys' })).toContainText(DEVELOPER_TEXTS.noKeys);
  await screen(page, 'developers-empty');

  const opener = page.getByRole('button', { name: 'Create API key' });
  await opener.click();
  const create = dialog(page, 'Create API key');
  // Focus moves into the dialog; an empty name is refused under the field.
  await expect.poll(() => focusedDialog(page)).toBe('Create API key');
  await create.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(create.getByText('Give the key a name, for example the system that will use it.')).toBeVisible();
  await create.getByLabel('Name').fill('Listing site');
  await screen(page, 'developers-create-key');
  await create.getByLabel('Name').press('Enter');

  const shown = dialog(page, 'Your new API key');
  const secretField = shown.getByRole('textbox', { name: 'API key', exact: true });
  await expect(secretField).toBeFocused();
  await expect(shown).toContainText(DEVELOPER_TEXTS.keyShownOnce);
  await screen(page, 'developers-key-secret');
  await shown.getByRole('button', { name: 'Copy' }).click();
  await expect(shown.getByRole('button', { name: NOTICES.copied })).toBeVisible();
  apiKey = await page.evaluate(() => navigator.clipboard.readText());
  expect(apiKey).toMatch(/^rw_live_/);
  expect(apiKey).toBe(await secretField.inputValue());
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();
  await expect(opener).toBeFocused();

  const row = page.getByTestId('api-key').filter({ hasText: 'Listing site' });
  await expect(row).toContainText(`${apiKey.slice(0, 12)}…`);
  await expect(row).toContainText(DEVELOPER_TEXTS.neverUsed);
  // Shown once: the page never holds the secret again.
  expect(await page.locator('main').innerText()).not.toContain(apiKey);
});

test('add an endpoint for tour.processed, send a test event and see it delivered', async () => {
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const add = dialog(page, 'Add endpoint');
  await add.getByLabel('Endpoint URL').fill(receiver.url);
  await add.getByLabel('Description (optional)').fill('Listing site sync');
  await add.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(add.getByText('Choose at least one event to send to this endpoint.')).toBeVisible();
  await add.getByLabel('Tour processed').check();
  // The server refuses a cloud metadata address; its message shows under the URL field.
  await add.getByLabel('Endpoint URL').fill('http://169.254.169.254/latest/meta-data');
  await add.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(add.locator('.field-error')).toHaveText(/private or local network address/);
  await expect(add.getByLabel('Endpoint URL')).toHaveAttribute('aria-invalid', 'true');
  await add.getByLabel('Endpoint URL').fill(receiver.url);
  await screen(page, 'developers-add-endpoint');
  await add.getByRole('button', { name: 'Add endpoint' }).click();

  const added = dialog(page, 'Endpoint added');
  const secretField = added.getByRole('textbox', { name: 'Signing secret', exact: true });
  await expect(secretField).toBeFocused();
  signingSecret = await secretField.inputValue();
  expect(signingSecret).toMatch(/^whsec_/);
  await expect(added).toContainText(DEVELOPER_TEXTS.secretShownOnce);
  await added.getByRole('button', { name: 'Done' }).click();
  await expect(added).toBeHidden();

  const card = endpointCard(page);
  await expect(card.getByRole('list', { name: 'Events' })).toHaveText('Tour processed');
  await expect(card.getByTestId('endpoint-state')).toHaveText('Enabled');
  await expect(card).toContainText(DEVELOPER_TEXTS.noDeliveries);
  // The secret is read only on Reveal, and it is the one shown at creation.
  await card.getByRole('button', { name: 'Reveal secret' }).click();
  await expect(card.getByRole('textbox', { name: 'Signing secret', exact: true })).toHaveValue(signingSecret);
  await card.getByRole('button', { name: 'Hide' }).click();

  await card.getByRole('button', { name: 'Send test event' }).click();
  await snackbar(page, DEVELOPER_TEXTS.testSent);
  const test = await receiver.waitForVerified(signingSecret, (e) => e.type === 'webhook.test', 30_000);
  // The log refreshes by itself while the delivery is in flight.
  const row = card.locator(`[data-testid="delivery-row"][data-event-id="${test.id}"]`);
  await expect(row.getByTestId('delivery-status')).toHaveText('Succeeded', { timeout: 20_000 });
  await expect(row).toContainText('Test event');
  await expect(row).toContainText('200');
  await row.getByText('Response').click();
  await expect(row.locator('.delivery-excerpt')).toHaveText('received');
  await screen(page, 'developers-test-delivered');
});

test('upload a tour through the API with the key; a verified tour.processed names it and shows in the log', async () => {
  test.setTimeout(240_000);
  const video = await fs.readFile(await phoneVideo('whole'));
  type Signed = {
    fileGetPreSignedUrl: {
      uploadURL: string | null;
      key: string | null;
      headers: Array<{ key: string; value: string }>;
      error: string | null;
      message: string | null;
    };
  };
  const signed = await asIntegration<Signed>(
    page,
    'mutation($ext: String!) { fileGetPreSignedUrl(input: $ext) { uploadURL key headers { key value } error message } }',
    { ext: 'mp4' },
    apiKey,
  );
  expect(signed.errors).toBeUndefined();
  const target = signed.data!.fileGetPreSignedUrl;
  expect(target.error).toBeNull();
  const put = await page.request.put(target.uploadURL!, {
    headers: Object.fromEntries(target.headers.map((h) => [h.key, h.value])),
    data: video,
  });
  expect(put.status()).toBe(200);
  const submitted = await asIntegration<{ fileSubmitPreSignedUpload: { tourId: string } }>(
    page,
    'mutation($key: String!) { fileSubmitPreSignedUpload(input: { key: $key }) { tourId } }',
    { key: target.key },
    apiKey,
  );
  expect(submitted.errors).toBeUndefined();
  tourId = submitted.data!.fileSubmitPreSignedUpload.tourId;
  expect(tourId).toMatch(/^tour_/);

  const processed = await receiver.waitForVerified(
    signingSecret,
    (e) => e.type === 'tour.processed' && (e.data.tour as { id?: string } | undefined)?.id === tourId,
    200_000,
  );
  expect(processed.data.tour).toMatchObject({ id: tourId, status: 'PROCESSED' });
  // Nothing arrives that the verifier refuses.
  expect(receiver.received.every((d) => verify(signingSecret, d))).toBe(true);

  const card = endpointCard(page);
  await card.getByRole('button', { name: /^Refresh/ }).click();
  const row = card.locator(`[data-testid="delivery-row"][data-event-id="${processed.id}"]`);
  await expect(row).toContainText('Tour processed');
  await expect(row.getByTestId('delivery-status')).toHaveText('Succeeded');
  await screen(page, 'developers-tour-processed');
  // The key was used: its row says when after a reload (written at most once a minute, so the first use counts).
  await page.reload();
  await expect(page.getByTestId('api-key').filter({ hasText: 'Listing site' })).toContainText('Last used');
});

test('revoke the key: the API refuses it at once', async () => {
  const row = page.getByTestId('api-key').filter({ hasText: 'Listing site' });
  await row.getByRole('button', { name: /^Revoke/ }).click();
  const confirm = dialog(page, 'Revoke API key');
  await expect(confirm).toContainText('Listing site');
  await screen(page, 'developers-revoke');
  await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
  await snackbar(page, DEVELOPER_TEXTS.keyRevoked);
  await expect(row).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeFocused();
  const refused = await asIntegration(page, 'query($id: ID!) { tour(tourID: $id) { id } }', { id: tourId }, apiKey);
  expect(refused.status).toBe(401);
});

test.describe('on a 390x844 touch phone', () => {
  test.use({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    reducedMotion: 'reduce',
  });

  test('the page fits, its targets are 44 px and its dialogs fit', async ({ page: phone }) => {
    await logIn(phone);
    await phone.goto('/account/developers');
    const card = phone.getByTestId('webhook-endpoint').first();
    await expect(card.getByTestId('delivery-row').first()).toBeVisible();
    const layout = await phone.evaluate(() => {
      const small: string[] = [];
      const targets = Array.from(
        document.querySelectorAll('main sl-button, main summary, main .event-choice, main input'),
      );
      for (const t of targets) {
        const el = t.localName === 'sl-button' ? (t.shadowRoot?.querySelector('[part~="base"]') ?? t) : t;
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0 && r.height < 44)
          small.push(`${t.localName} "${(t.textContent ?? '').trim().slice(0, 30)}" ${Math.round(r.height)}px`);
      }
      // The outermost elements reaching past the viewport's right edge, to name what overflows.
      const width = document.documentElement.clientWidth;
      const wide = Array.from(document.querySelectorAll('body *'))
        .filter(
          (e) =>
            e.getBoundingClientRect().right > width + 1 &&
            !(e.parentElement && e.parentElement.getBoundingClientRect().right > width + 1),
        )
        .slice(0, 3)
        .map(
          (e) =>
            `<${e.localName} class="${e.getAttribute('class') ?? ''}"> right ${Math.round(e.getBoundingClientRect().right)}`,
        );
      return { overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth, small, wide };
    });
    expect(layout.overflow, `horizontal overflow of the page: ${layout.wide.join('; ')}`).toBeLessThanOrEqual(0);
    expect(layout.small, 'touch targets under 44 px').toEqual([]);
    await screen(phone, 'developers-phone');

    await phone.getByRole('button', { name: 'Add endpoint' }).click();
    const add = dialog(phone, 'Add endpoint');
    await expect.poll(() => focusedDialog(phone)).toBe('Add endpoint');
    const panel = await add.locator('[part~="panel"]').boundingBox();
    expect(panel!.x).toBeGreaterThanOrEqual(0);
    expect(panel!.x + panel!.width).toBeLessThanOrEqual(390);
    await screen(phone, 'developers-phone-add-endpoint');
    await add.getByRole('button', { name: 'Cancel' }).click();
    await expect(add).toBeHidden();
  });
});

test('rotate the signing secret, replay a delivery signed with it, edit, pause and resume, then delete the endpoint', async () => {
  await page.goto('/account/developers');
  const card = endpointCard(page);
  await card.getByRole('button', { name: 'Rotate secret' }).click();
  const rotate = dialog(page, 'Rotate signing secret');
  await screen(page, 'developers-rotate');
  await rotate.getByRole('button', { name: 'Rotate', exact: true }).click();
  const rotated = dialog(page, 'New signing secret');
  const field = rotated.getByRole('textbox', { name: 'Signing secret', exact: true });
  await expect(field).toBeFocused();
  const newSecret = await field.inputValue();
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(signingSecret);
  await rotated.getByRole('button', { name: 'Done' }).click();
  await expect(rotated).toBeHidden();

  // Replay the test event: the same webhook-id, signed with the new secret, logged as attempt 2.
  const testRow = card.getByTestId('delivery-row').filter({ hasText: 'Test event' }).first();
  const eventId = (await testRow.getAttribute('data-event-id'))!;
  await testRow.getByRole('button', { name: /^Replay/ }).click();
  await snackbar(page, DEVELOPER_TEXTS.replaySent);
  const replayed = await receiver.waitForVerified(newSecret, (e) => e.id === eventId, 30_000);
  expect(replayed.type).toBe('webhook.test');
  const attempts = card.locator(`[data-testid="delivery-row"][data-event-id="${eventId}"]`);
  await expect(attempts).toHaveCount(2);
  await expect(attempts.first().getByTestId('delivery-status')).toHaveText('Succeeded', { timeout: 20_000 });
  await expect(attempts.first().locator('td').nth(2)).toHaveText('2');

  // Edit: one more event; then pause and resume the endpoint (a paused one is not offered a test send).
  await card.getByRole('button', { name: 'Edit' }).click();
  const edit = dialog(page, 'Edit endpoint');
  await expect(edit.getByLabel('Endpoint URL')).toHaveValue(receiver.url);
  await expect(edit.getByLabel('Tour processed')).toBeChecked();
  await edit.getByLabel('Tour failed').check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await snackbar(page, DEVELOPER_TEXTS.endpointSaved);
  await expect(card.getByRole('list', { name: 'Events' })).toHaveText('Tour processedTour failed');
  await card.getByRole('button', { name: 'Disable' }).click();
  await expect(card.getByTestId('endpoint-state')).toHaveText('Disabled');
  await expect(card.getByRole('button', { name: 'Send test event' })).toBeDisabled();
  await card.getByRole('button', { name: 'Enable' }).click();
  await expect(card.getByTestId('endpoint-state')).toHaveText('Enabled');

  await card.getByRole('button', { name: 'Delete' }).click();
  const confirm = dialog(page, 'Delete endpoint');
  await expect(confirm).toContainText(receiver.url);
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await snackbar(page, DEVELOPER_TEXTS.endpointDeleted);
  await expect(card).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Webhook endpoints' })).toBeFocused();
  await expect(page.getByRole('region', { name: 'Webhook endpoints' })).toContainText(DEVELOPER_TEXTS.noEndpoints);
});
