/**
 * The console's rough edges on a phone, in portrait (390x844) and landscape (844x390) with touch, against
 * the real server: a file of random bytes named .mp4 is refused before a byte is uploaded; the same file sent anyway
 * fails with its reason, whole, under its own "Failed Tours" heading; every tick on the plan cards is one size. And on
 * a desktop (1280x800) and a phone (390x844): the tour dialog's "Copy link" sits level with the title, not above it,
 * and on the phone it is its icon only, so the title does not wrap beside it.
 */
import { expect, test, type Page } from '@playwright/test';
import { ERROR_TEXTS } from '@roomwalk/shared';
import { gql, poll, signUpAgent, testVideo, uploadTour } from './embed-support.js';
import { dialog } from './support.js';

const BASE = process.env.E2E_BASE_URL!;
const PASSWORD = 'Walkthrough1';
/** Bytes that are no video, in a file named like one. */
const NOISE = Buffer.from(Uint8Array.from({ length: 256 * 1024 }, (_, i) => (i * 7919 + 13) % 251));
const stamp = Date.now().toString(36);

async function signIn(page: Page, email: string, touch = true): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  const logIn = page.getByRole('button', { name: 'Log in with email' });
  await (touch ? logIn.tap() : logIn.click());
  await page.waitForURL((u) => u.pathname === '/');
}

/** Sends bytes the way the console uploads (presigned PUT, then submit): the server's processing gives the verdict. */
async function uploadBytes(token: string, body: Buffer): Promise<string> {
  const url = await gql<{
    fileGetPreSignedUrl: { uploadURL: string; key: string; headers: Array<{ key: string; value: string }> };
  }>(
    BASE,
    'mutation($ext: String!) { fileGetPreSignedUrl(input: $ext) { uploadURL key headers { key value } } }',
    { ext: 'mp4' },
    token,
  );
  const p = url.fileGetPreSignedUrl;
  const put = await fetch(p.uploadURL, {
    method: 'PUT',
    headers: Object.fromEntries(p.headers.map((h) => [h.key, h.value])),
    body: new Uint8Array(body),
  });
  expect(put.status).toBe(200);
  const done = await gql<{ fileSubmitPreSignedUpload: { tourId: string } }>(
    BASE,
    'mutation($key: String!) { fileSubmitPreSignedUpload(input: { key: $key }) { tourId } }',
    { key: p.key },
    token,
  );
  return done.fileSubmitPreSignedUpload.tourId;
}

const tourCount = async (token: string) =>
  (await gql<{ tours: { edges: unknown[] } }>(BASE, '{ tours(first: 10) { edges { cursor } } }', {}, token)).tours.edges
    .length;

for (const vp of [
  { name: 'portrait', width: 390, height: 844 },
  { name: 'landscape', width: 844, height: 390 },
]) {
  test.describe(`phone ${vp.name} ${vp.width}x${vp.height}`, () => {
    test.use({
      viewport: { width: vp.width, height: vp.height },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });

    test('a file that is no video: refused before upload; sent anyway, its failed card says why under Failed Tours', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const email = `rough-${vp.name}-${stamp}@example.com`;
      const token = await signUpAgent(BASE, { email, password: PASSWORD, name: 'Naledi', surname: 'Phone' });
      await signIn(page, email);

      await page.getByRole('button', { name: 'Add' }).tap();
      await page.waitForURL('**/upload');
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Upload a video' }).tap();
      await (await chooser).setFiles({ name: 'walkthrough.mp4', mimeType: 'video/mp4', buffer: NOISE });
      const refused = dialog(page, ERROR_TEXTS.uploadFailedTitle);
      await expect(refused).toBeVisible({ timeout: 30_000 });
      await expect(refused).toContainText(ERROR_TEXTS.videoUnreadable);
      expect(await tourCount(token)).toBe(0);

      // Sent past the screen (an old console, the API): processing says the same, not "Tour upload failed".
      const tourId = await uploadBytes(token, NOISE);
      await poll(
        async () =>
          (
            await gql<{ tour: { status: { status: string } } }>(
              BASE,
              'query($id: ID!) { tour(tourID: $id) { status { status } } }',
              { id: tourId },
              token,
            )
          ).tour.status.status === 'FAILED',
        'the tour to fail',
        120_000,
      );
      await page.goto('/');
      const failed = page.getByRole('region', { name: 'Failed Tours' });
      const reason = failed.getByTestId('tour-failure-reason');
      await expect(reason).toHaveText(ERROR_TEXTS.videoUnreadable);
      // Whole: nothing of it is cut off.
      expect(
        await reason.evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1),
      ).toBe(true);
      await expect(page.getByRole('region', { name: 'Processing Tours' })).toHaveCount(0);
    });

    test('every tick on the plan cards is the same size', async ({ page }) => {
      const email = `ticks-${vp.name}-${stamp}@example.com`;
      await signUpAgent(BASE, { email, password: PASSWORD, name: 'Naledi', surname: 'Plans' });
      await signIn(page, email);
      await page.goto('/account/subscriptions');
      const ticks = page.locator('.plan-features sl-icon[name="check-lg"]');
      await expect(ticks.first()).toBeVisible();
      const sizes = await ticks.evaluateAll((els) =>
        els
          .map((el) => el.getBoundingClientRect())
          .map((r) => [Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10]),
      );
      expect(sizes.length).toBeGreaterThan(8);
      expect(new Set(sizes.map((s) => s.join('x'))).size).toBe(1);
    });
  });
}

/** One agent with one processed tour, made once for the dialog tests of both sizes. */
let dialogAgent: Promise<{ email: string; title: string }> | undefined;
function agentWithTour(): Promise<{ email: string; title: string }> {
  dialogAgent ??= (async () => {
    const email = `dialog-${stamp}@example.com`;
    const token = await signUpAgent(BASE, { email, password: PASSWORD, name: 'Naledi', surname: 'Dialog' });
    // A long title, so that on a phone it takes the header's width and more than one line.
    const title = '14 Jacaranda Avenue, Garden Cottage';
    await uploadTour(BASE, token, testVideo(), { title, timeoutMs: 240_000 });
    return { email, title };
  })();
  return dialogAgent;
}

for (const vp of [
  { name: 'desktop', width: 1280, height: 800, touch: false },
  { name: 'phone', width: 390, height: 844, touch: true },
]) {
  test.describe(`tour dialog on a ${vp.name} ${vp.width}x${vp.height}`, () => {
    test.use({ viewport: { width: vp.width, height: vp.height }, isMobile: vp.touch, hasTouch: vp.touch });

    test('"Copy link" sits level with the title, beside it and inside the header, not above it at the top edge', async ({
      page,
    }) => {
      test.setTimeout(300_000);
      const { email, title } = await agentWithTour();
      await signIn(page, email, vp.touch);
      await page.locator('.tour-card-button', { hasText: title }).click();
      const box = dialog(page, title);
      const heading = box.locator('[part="title"]');
      const copy = box.getByRole('button', { name: 'Copy link' });
      await expect(copy).toBeVisible();
      await expect(heading).toBeVisible();
      const [t, c, header, panel] = await Promise.all([
        heading.boundingBox(),
        copy.boundingBox(),
        box.locator('[part="header"]').boundingBox(),
        box.locator('[part="panel"]').boundingBox(),
      ]);
      if (!t || !c || !header || !panel) throw new Error('the dialog is not laid out');
      const text = await heading.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const r = range.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, lineHeight: Number.parseFloat(getComputedStyle(el).lineHeight) || 24 };
      });
      // Beside the title: to its right, not overlapping it, within the panel.
      expect(c.x, 'Copy link right of the title').toBeGreaterThanOrEqual(t.x + t.width - 1);
      expect(c.x + c.width).toBeLessThanOrEqual(panel.x + panel.width + 1);
      // Level with the title (one or two lines): its middle on the title's middle, its top
      // not above the title's first line.
      const middle = c.y + c.height / 2;
      expect(Math.abs(middle - (text.top + text.bottom) / 2), 'Copy link level with the title').toBeLessThanOrEqual(
        text.lineHeight / 2,
      );
      expect(c.y, 'Copy link not above the title').toBeGreaterThanOrEqual(text.top - 1);
      // Inside the header, clear of the panel's top edge.
      expect(c.y).toBeGreaterThanOrEqual(header.y);
      expect(c.y - panel.y, 'Copy link clear of the top edge').toBeGreaterThanOrEqual(16);
      // A dialog without buttons keeps no empty footer for toasts while none is up.
      await expect(box.locator('[part="footer"]')).toBeHidden();
      const lines = Math.round((text.bottom - text.top) / text.lineHeight);
      console.log(
        `${vp.name}: title ${Math.round(t.width)} px wide in ${lines} line(s), Copy link ${Math.round(c.width)} px`,
      );
      if (vp.touch) {
        // Under 600 px Copy link is its icon (its name stays for screen readers), so the title keeps the header's
        // width: two lines, where beside the worded button it wrapped to four.
        expect(c.width, 'Copy link is its icon only').toBeLessThanOrEqual(56);
        expect(lines, 'title lines beside Copy link').toBeLessThanOrEqual(2);
      }
    });
  });
}

test.describe('toasts in a dialog on a phone 390x844', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('"Audience link created" shows above Sharing Options\' Close button, over none of its text', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const { email, title } = await agentWithTour();
    await signIn(page, email);
    await page.locator('.tour-card-button', { hasText: title }).tap();
    await dialog(page, title).getByRole('button', { name: 'Generate QR Code' }).tap();
    const sharing = dialog(page, 'Sharing Options');
    await sharing.getByRole('button', { name: 'New audience link' }).tap();
    await sharing.getByLabel('Name', { exact: true }).fill(`Open day ${stamp}`);
    await sharing.getByRole('button', { name: 'Create link' }).tap();
    const toast = sharing.locator('.snackbar', { hasText: 'Audience link created' });
    await expect(toast).toBeVisible();
    const [b, body, footer, close] = await Promise.all([
      toast.locator('[part="base"]').first().boundingBox(),
      sharing.locator('[part="body"]').boundingBox(),
      sharing.locator('[part="footer"]').boundingBox(),
      sharing.locator('.dialog-footer').getByRole('button', { name: 'Close' }).boundingBox(),
    ]);
    if (!b || !body || !footer || !close) throw new Error('the dialog is not laid out');
    console.log(
      `toast ${Math.round(b.y)}-${Math.round(b.y + b.height)}, body ${Math.round(body.y)}-${Math.round(body.y + body.height)}, Close from ${Math.round(close.y)}`,
    );
    // Not over the body's text (the part that scrolls), nor over the Close button: in the footer, above it.
    expect(b.y, 'toast below the body').toBeGreaterThanOrEqual(body.y + body.height - 1);
    expect(b.y).toBeGreaterThanOrEqual(footer.y - 1);
    expect(b.y + b.height, 'toast above Close').toBeLessThanOrEqual(close.y + 1);
    expect(b.y + b.height).toBeLessThanOrEqual(844);
  });
});
