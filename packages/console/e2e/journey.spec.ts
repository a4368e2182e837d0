/**
 * The accounts journey against the real server: sign up → activation mail → activate → log in → edit
 * profile and company → (upgrade to Basic, which teams need) → invite a teammate → the teammate signs up through the
 * invite → promote and demote → both reports in both formats → log out. Every screen is checked with axe and saved
 * at phone and desktop widths in test-artifacts/.
 */
import fs from 'node:fs';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { ACCOUNT_NOTES, ERROR_TEXTS, NOTICES, VALIDATION } from '@roomwalk/shared';
import { dialog, mailLink, pathOf, screen } from './support.js';

test.describe.configure({ mode: 'serial' });

const stamp = Date.now().toString(36);
const owner = { email: `owner-${stamp}@example.com`, password: 'Walkthrough1', firstname: 'Olwethu', surname: 'Owner' };
const mate = { email: `mate-${stamp}@example.com`, password: 'Teammate12', firstname: 'Mpho', surname: 'Mate' };

let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ acceptDownloads: true, reducedMotion: 'reduce' });
  page = await context.newPage();
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
});
test.afterAll(async () => context?.close());

/** Marks the running step fixme when the server answered NOT_AVAILABLE_YET (its feature has not landed). */
async function fixmeIfNotAvailable(p: Page, feature: string): Promise<void> {
  const notYet = await p
    .getByText(ERROR_TEXTS.notAvailableYet)
    .first()
    .isVisible()
    .catch(() => false);
  test.fixme(notYet, `server answers NOT_AVAILABLE_YET for ${feature}`);
}

async function signUp(p: Page, who: typeof owner, route = '/signup') {
  await p.goto(route);
  await p.getByLabel('E-mail').fill(who.email);
  await p.getByLabel('Firstname').fill(who.firstname);
  await p.getByLabel('Surname').fill(who.surname);
  await p.getByLabel('Contact Number').fill('0821234567');
  await p.getByLabel('Password', { exact: true }).fill(who.password);
  await p.getByLabel('Re-enter password').fill(who.password);
  await p.getByLabel('Accept Terms & Conditions').check();
  await p.getByRole('button', { name: 'Sign up', exact: true }).click();
  await Promise.race([p.waitForURL((u) => u.pathname === '/'), p.getByText(ERROR_TEXTS.notAvailableYet).waitFor()]);
  await fixmeIfNotAvailable(p, 'userRegister');
  await expect(p.getByRole('heading', { name: 'My Tours' })).toBeVisible();
}

async function logIn(p: Page, who: typeof owner) {
  await p.goto('/login');
  await p.getByLabel('Email').fill(who.email.toUpperCase());
  await p.getByLabel('Password').fill(who.password);
  await p.getByRole('button', { name: 'Log in with email' }).click();
  await p.waitForURL((u) => u.pathname === '/');
}

async function snackbar(p: Page, text: string) {
  await expect(p.locator('.snackbar-region')).toContainText(text);
  await expectSnackbarClear(p);
}

type Box = { left: number; top: number; right: number; bottom: number };
const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * The page heading is whole (not squeezed under the header buttons) and the Feedback button covers
 * no text or control of the page (measured boxes; on the phone project this is a 390x844 touch screen).
 */
async function expectUncovered(p: Page) {
  const problems = await p.evaluate(() => {
    const out: string[] = [];
    const box = (e: Element) => e.getBoundingClientRect();
    const h1 = document.querySelector('main h1');
    if (h1 && !h1.classList.contains('visually-hidden')) {
      if (h1.scrollWidth > h1.clientWidth + 1)
        out.push(`heading "${h1.textContent}" is squeezed: ${h1.clientWidth}px for ${h1.scrollWidth}px of text`);
      for (const b of Array.from(document.querySelectorAll('main .page-actions > *'))) {
        const [r, q] = [box(h1), box(b)];
        if (r.left < q.right && q.left < r.right && r.top < q.bottom && q.top < r.bottom)
          out.push(`"${b.textContent?.trim()}" sits over the heading`);
      }
    }
    const feedback = Array.from(document.querySelectorAll('.feedback-button')).find((e) => box(e).width > 0);
    if (feedback) {
      const f = box(feedback);
      for (const e of Array.from(
        document.querySelectorAll(
          'main h1, main h2, main h3, main p, main dt, main dd, main li, main a, main sl-button, main button, main .card',
        ),
      )) {
        if (e === feedback || e.contains(feedback) || feedback.contains(e)) continue;
        const r = box(e);
        if (r.width && r.height && r.left < f.right && f.left < r.right && r.top < f.bottom && f.top < r.bottom)
          out.push(`Feedback covers <${e.localName}> "${(e.textContent ?? '').trim().slice(0, 40)}"`);
      }
    }
    return out;
  });
  expect(problems, `layout of ${p.url()}`).toEqual([]);
}

/** A snackbar never lies over the page title or the header buttons. */
async function expectSnackbarClear(p: Page) {
  const snack = await p.locator('.snackbar-region').boundingBox();
  if (!snack || snack.height === 0) return;
  const s = { left: snack.x, top: snack.y, right: snack.x + snack.width, bottom: snack.y + snack.height };
  for (const target of ['main h1', 'main .page-actions']) {
    const b = await p
      .locator(target)
      .first()
      .boundingBox()
      .catch(() => null);
    if (!b) continue;
    expect(
      overlaps(s, { left: b.x, top: b.y, right: b.x + b.width, bottom: b.y + b.height }),
      `snackbar over ${target}`,
    ).toBe(false);
  }
}

test('public screens: login, sign-up with terms, password reset, legal pages, not found', async () => {
  // Many full-page screenshots (the licences text is long): on a loaded 2-core machine this takes over a minute.
  test.slow();
  await page.goto('/account');
  await page.waitForURL('**/login');
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await screen(page, 'login');
  await page.getByRole('button', { name: 'Log in with email' }).click();
  await expect(page.getByText('Password is a required field.')).toBeVisible();
  await screen(page, 'login-errors');

  // Google sign-in is not configured on the test server: no Google button, no dangling 'or'.
  await expect(page.getByRole('button', { name: 'Log in with Google' })).toHaveCount(0);
  await expect(page.getByRole('separator')).toHaveCount(0);

  await page.goto('/signup');
  await screen(page, 'signup');
  await expect(page.getByRole('button', { name: 'Sign up with Google' })).toHaveCount(0);
  // An error that appears when the E-mail field loses focus must not move 'Read the terms' from under the pointer
  // (the first click missed). Measured: the button stays where it was (it moved 24 px before).
  const readTerms = page.getByRole('button', { name: 'Read the terms' });
  await page.getByLabel('E-mail').fill('not-an-email');
  const before = await readTerms.boundingBox();
  await page.getByLabel('E-mail').blur();
  await expect(page.getByText(VALIDATION.emailInvalid)).toBeVisible();
  expect((await readTerms.boundingBox())!.y).toBe(before!.y);
  await readTerms.click();
  const terms = dialog(page, 'Terms & Conditions');
  await expect(terms.locator('ol.terms-sections > li')).toHaveCount(17);
  await screen(page, 'signup-terms');
  await terms.locator('[slot=footer]').getByRole('button', { name: 'Close' }).click();

  await page.goto('/password/reset/request');
  await expect(page.getByRole('heading', { name: 'Reset Your Password' })).toBeVisible();
  await screen(page, 'password-reset-request');
  await page.goto('/password/reset?token=abc');
  await screen(page, 'password-reset');
  for (const [route, name] of [
    ['/terms', 'terms'],
    ['/privacy', 'privacy'],
  ] as const) {
    await page.goto(route);
    await screen(page, name);
  }
  await page.goto('/licenses');
  await expect(page.getByTestId('licenses-text')).toContainText('react@');
  await screen(page, 'licenses');
  await page.goto('/account/activate?token=not-a-real-token');
  await expect(page.getByText(ERROR_TEXTS.activationFailedTitle)).toBeVisible();
  await screen(page, 'activation-failed');
});

test('sign up lands on My Tours', async () => {
  await signUp(page, owner);
  await screen(page, 'home');
});

test('activation mail from the outbox activates the account', async () => {
  const link = await mailLink(page, owner.email, /\/account\/activate\?token=/);
  await page.goto(pathOf(link));
  await expect(page.getByText(ERROR_TEXTS.activationSuccessTitle)).toBeVisible();
  await screen(page, 'activation-success');
  await page.waitForURL((u) => u.pathname === '/', { timeout: 5000 });
  // A second click on the same link: already active, with Log in — not 'Activation Failed'.
  await page.goto(pathOf(link));
  await expect(page.getByRole('heading', { name: ERROR_TEXTS.activationAlreadyTitle })).toBeVisible();
  await expect(page.getByText(ERROR_TEXTS.accountAlreadyActive)).toBeVisible();
  await expect(page.getByText(ERROR_TEXTS.activationFailedTitle)).toHaveCount(0);
  await screen(page, 'activation-already-active');
  await page.getByRole('link', { name: 'Log in' }).click();
  await page.waitForURL((u) => u.pathname === '/' || u.pathname === '/login');
});

test('log out and log in again', async () => {
  await page.goto('/account');
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL('**/login');
  await logIn(page, owner);
  await expect(page.getByRole('heading', { name: 'My Tours' })).toBeVisible();
});

test('edit profile and company', async () => {
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Account', exact: true })).toBeVisible();
  await expectUncovered(page);
  await screen(page, 'account');

  await page.getByRole('region', { name: 'Account Details' }).getByRole('button', { name: 'Edit' }).click();
  const profile = dialog(page, 'Edit your profile');
  await expect(profile.getByLabel('Email')).toHaveValue(owner.email);
  await profile.getByLabel('Name', { exact: true }).fill('Olwethu-Ann');
  // Typed in international form beside the default South Africa.
  await profile.getByLabel('Contact Number').fill('+27 83 555 1234');
  await screen(page, 'account-edit-profile');
  await profile.getByRole('button', { name: 'Save' }).click();
  await Promise.race([snackbar(page, NOTICES.successful), page.getByText(ERROR_TEXTS.notAvailableYet).waitFor()]);
  await fixmeIfNotAvailable(page, 'userSave');
  await expect(page.getByTestId('profile-name')).toHaveText(`Olwethu-Ann ${owner.surname}`);
  await expect(page.getByTestId('profile-contact')).toHaveText('+27 835551234');

  await page.getByRole('region', { name: 'Company Details' }).getByRole('button', { name: 'Edit' }).click();
  const company = dialog(page, 'Edit company details');
  await company.getByLabel('Company name').fill('Walkers Realty');
  await company.getByLabel('Address').fill('12 Long Street, Cape Town');
  await company.getByLabel('VAT number').fill('4123456789');
  await expect(company.getByText('Logo editing is available for Basic and Pro plans')).toBeVisible();
  await screen(page, 'account-edit-company');
  await company.getByRole('button', { name: 'Save' }).click();
  await snackbar(page, NOTICES.profileSaved);
  await expect(page.getByTestId('company-name')).toHaveText('Walkers Realty');
  await expect(page.getByTestId('company-vat')).toHaveText('4123456789');
});

test('upgrade to Basic through the checkout (teams need Basic or higher)', async () => {
  await page.goto('/team');
  await expect(dialog(page, 'Not Available')).toContainText(ERROR_TEXTS.teamsNotAvailable);
  await screen(page, 'team-not-available');

  await page.goto('/account/subscriptions');
  await expect(page.getByTestId('plan-card')).toHaveCount(4);
  await expect(page.getByRole('article', { name: 'Free' }).locator('sl-button')).toHaveText('Current Plan');
  await screen(page, 'subscriptions');
  await page.getByRole('article', { name: 'Basic' }).getByRole('button', { name: 'Activate Plan' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/account/subscriptions'), { timeout: 10_000 });
  await fixmeIfNotAvailable(page, 'paymentCheckout');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry date (MM / YY)').fill('12 / 39');
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByRole('button', { name: /and subscribe/ }).click();
  await page.waitForURL('**/profile/success');
  await expect(page.getByTestId('plan-name')).toHaveText('Basic');
  await expect(page.getByTestId('payment-return')).toHaveText(ACCOUNT_NOTES.paymentSuccess);
  await page.goto('/profile/cancel');
  await expect(page.getByTestId('payment-return')).toHaveText(ACCOUNT_NOTES.paymentCancelled);
  await screen(page, 'payment-cancelled');
});

test('invite a teammate', async () => {
  await page.goto('/team');
  await expect(page.getByRole('heading', { name: 'Walkers Realty' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No Members Invited' })).toBeVisible();
  await screen(page, 'team-empty');
  await page.getByRole('button', { name: 'Invite Member' }).click();
  const invite = dialog(page, 'Invite Member');
  await invite.getByLabel('Invitee Email').fill(mate.email);
  await screen(page, 'team-invite');
  await invite.getByRole('button', { name: 'Invite', exact: true }).click();
  await snackbar(page, NOTICES.invited);
  const pending = page.getByRole('region', { name: 'Pending Invites' });
  await expect(pending.getByTestId('member-card')).toContainText(mate.email);
  await expect(pending.getByTestId('member-card')).toContainText('Pending');
  await expectUncovered(page);
  await screen(page, 'team-pending');
  // The pending invite: dates like the rest of the console, and Revoke asks first.
  await pending.getByTestId('member-card').click();
  const details = dialog(page, 'Pending Invite');
  await expect(details.locator('dd').nth(1)).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
  await details.getByRole('button', { name: 'Revoke Invite' }).click();
  const revoke = dialog(page, 'Revoke Invite');
  await expect(revoke).toContainText(mate.email);
  await screen(page, 'team-revoke-confirm');
  await revoke.getByRole('button', { name: 'Cancel' }).click();
  await expect(revoke).toBeHidden();
  await expect(pending.getByTestId('member-card')).toContainText(mate.email);
});

test('the teammate signs up through the invite', async ({ browser }: { browser: Browser }) => {
  const link = await mailLink(page, mate.email, /\/signup\?inviteToken=/);
  const mateContext = await browser.newContext({ reducedMotion: 'reduce' });
  const matePage = await mateContext.newPage();
  try {
    await matePage.goto(pathOf(link));
    await expect(matePage).toHaveURL(/\/signup$/);
    // The invited address is filled in from the invite.
    await expect(matePage.getByLabel('E-mail')).toHaveValue(mate.email);
    await screen(matePage, 'signup-invited');
    await signUp(matePage, mate, '/signup');
  } finally {
    await mateContext.close();
  }
});

test('promote the teammate to admin and remove the role again', async () => {
  await page.goto('/team');
  const team = page.getByRole('region', { name: 'My Team' });
  const card = team.getByTestId('member-card').filter({ hasText: mate.email });
  await expect(card).toContainText('Standard User');
  // Named by the name the teammate gave, the email beneath.
  await expect(card.locator('strong')).toHaveText(`${mate.firstname} ${mate.surname}`);
  await screen(page, 'team-members');

  await card.click();
  const member = dialog(page, `${mate.firstname} ${mate.surname}`);
  await expect(member).toContainText('Monthly Active Tours');
  await expect(member).toContainText('Top Performing Tours');
  await screen(page, 'team-member');
  await member.getByRole('button', { name: 'Promote to Admin' }).click();
  const confirm = dialog(page, 'Promote to Admin');
  await screen(page, 'team-promote-confirm');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await snackbar(page, NOTICES.promotedToAdmin);
  await expect(card).toContainText('Admin User');

  await card.click();
  await dialog(page, `${mate.firstname} ${mate.surname}`).getByRole('button', { name: 'Remove Admin Role' }).click();
  await dialog(page, 'Remove Admin Role').getByRole('button', { name: 'Confirm' }).click();
  await snackbar(page, NOTICES.revokedAdmin);
  await expect(card).toContainText('Standard User');
});

test('a standard member is offered only what members may do, and told why', async ({
  browser,
}: {
  browser: Browser;
}) => {
  const mateContext = await browser.newContext({ reducedMotion: 'reduce' });
  const matePage = await mateContext.newPage();
  try {
    await logIn(matePage, mate);
    await matePage.goto('/account');
    await expect(matePage.getByTestId('plan-name')).toHaveText('Basic');
    await expect(matePage.getByRole('region', { name: 'My Plan' }).getByRole('button', { name: 'Manage' })).toHaveCount(
      0,
    );
    await expect(
      matePage.getByRole('region', { name: 'Company Details' }).getByRole('button', { name: 'Edit' }),
    ).toHaveCount(0);
    await expect(matePage.getByTestId('company-note')).toHaveText(ACCOUNT_NOTES.memberCompany);
    await expectUncovered(matePage);
    await screen(matePage, 'account-member');
    await matePage.goto('/team');
    await expect(matePage.getByRole('region', { name: 'My Team' })).toBeVisible();
    await expect(matePage.getByRole('button', { name: 'Invite Member' })).toHaveCount(0);
    await expect(matePage.getByTestId('member-note')).toBeVisible();
    await screen(matePage, 'team-member-view');
    await matePage.goto('/reports');
    await expect(matePage.getByTestId('member-note')).toHaveText(ACCOUNT_NOTES.memberReports);
    await expect(matePage.getByRole('button', { name: /User Summary/ })).toBeDisabled();
    await screen(matePage, 'reports-member');
  } finally {
    await mateContext.close();
  }
});

test('download both reports in both formats', async () => {
  await page.goto('/reports');
  await expect(page.getByRole('heading', { name: 'Available Reports' })).toBeVisible();
  await expectUncovered(page);
  await screen(page, 'reports');
  for (const report of ['Tours By Company', 'User Summary']) {
    for (const format of ['csv', 'pdf'] as const) {
      await page.getByRole('button', { name: new RegExp(report) }).click();
      const box = dialog(page, report);
      await box.getByLabel(format).check();
      if (report === 'Tours By Company' && format === 'csv') await screen(page, 'reports-dialog');
      const download = page.waitForEvent('download', { timeout: 15_000 });
      await box.getByRole('button', { name: 'Download' }).click();
      const outcome = await Promise.race([
        download.then((d) => d),
        page
          .getByText(ERROR_TEXTS.notAvailableYet)
          .waitFor()
          .then(() => null),
      ]);
      if (!outcome) await fixmeIfNotAvailable(page, 'reports');
      const file = await outcome!.path();
      const bytes = fs.readFileSync(file);
      expect(outcome!.suggestedFilename()).toMatch(new RegExp(`\\.${format}$`));
      if (format === 'pdf') expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      else {
        const text = bytes.toString('utf8');
        expect(text.split('\n')[0]).toContain(',');
        if (report === 'User Summary') {
          expect(text).toContain(owner.email);
          expect(text).toContain(mate.email);
        }
      }
      await expect(box).toBeHidden();
    }
  }
});

test('log out', async () => {
  await page.goto('/account');
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL('**/login');
  await page.goto('/reports');
  await page.waitForURL('**/login');
  await page.goto('/no/such/page');
  await page.waitForURL('**/login');
});
