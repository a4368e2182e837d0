/**
 * A person's data on a phone (390×844): the agent exports their data from the Account page (progress, then the
 * download: a ZIP whose manifest names them), the link also comes by mail; then they delete their account: the dialog
 * says what goes and when, takes focus in the password field, refuses a wrong password in words, schedules the
 * deletion with the right one and signs them out; the mail says the date; signing in again cancels it (a mail says so).
 * The deletion itself after the grace period (rows and files checked) is proven in the server's tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { checkA11y, dialog, mailLink, PHONE, screen } from './support.js';
import { signUpAgent } from './embed-support.js';

const BASE = process.env.E2E_BASE_URL!;
const PASSWORD = 'Secret123';
const stamp = Date.now().toString(36);
const email = `mydata-${stamp}@example.com`;

test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

async function logIn(p: Page) {
  await p.goto('/login');
  await p.getByLabel('Email').fill(email);
  await p.getByLabel('Password').fill(PASSWORD);
  await p.getByRole('button', { name: 'Log in with email' }).tap();
  await p.waitForURL((u) => u.pathname === '/');
}

async function outboxSubjects(p: Page): Promise<string[]> {
  const mails = (await (await p.request.get('/dev/outbox.json')).json()) as Array<{
    to_address: string;
    subject: string;
  }>;
  return mails.filter((m) => m.to_address === email).map((m) => m.subject);
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await signUpAgent(BASE, { email, password: PASSWORD, name: 'Dara', surname: 'Data' });
});

test('exports their data: progress, then a ZIP with a manifest, and the link by mail', async ({ page }) => {
  await logIn(page);
  await page.goto('/account');
  const card = page.locator('section.your-data');
  await expect(card.getByRole('heading', { name: 'Your data' })).toBeVisible();
  await card.getByRole('button', { name: 'Export my data' }).tap();
  const download = card.getByTestId('export-download');
  await expect(download).toBeVisible({ timeout: 30_000 });
  await expect(card.getByTestId('export-state')).toContainText('the link works until');
  await screen(page, 'personal-data-export-ready');
  await checkA11y(page, 'account your data');

  const href = (await download.getAttribute('href'))!;
  const [file] = await Promise.all([page.waitForEvent('download'), download.tap()]);
  expect(file.suggestedFilename()).toMatch(/^roomwalk-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = unzipSync(new Uint8Array(fs.readFileSync((await file.path())!)));
  const manifest = JSON.parse(strFromU8(zip['manifest.json']!));
  expect(manifest.user.email).toBe(email);
  expect(manifest.files.map((f: { name: string }) => f.name)).toEqual([
    'profile.json',
    'tours.json',
    'leads.json',
    'activity.json',
  ]);
  expect(JSON.parse(strFromU8(zip['profile.json']!)).profile).toMatchObject({ name: 'Dara', surname: 'Data' });
  expect(await mailLink(page, email, /\/data-export\//)).toBe(href);

  // The ZIP is in storage under the user's exports until the link expires.
  const exportsDir = path.join(process.env.E2E_DATA_DIR!, 'files', 'exports');
  expect(fs.readdirSync(exportsDir, { recursive: true }).some((f) => String(f).endsWith('.zip'))).toBe(true);
});

test('deletes the account: consequences, focus, a wrong password refused, scheduled and signed out; signing in cancels', async ({
  page,
}) => {
  await logIn(page);
  await page.goto('/account');
  const opener = page.getByTestId('delete-account');
  await opener.tap();
  const d = dialog(page, 'Delete your account');
  await expect(d.getByTestId('deletion-consequences')).toContainText('Your account, your company');
  await expect(d.getByTestId('deletion-consequences')).toContainText('(in 30 days)');
  await expect(d).toContainText('For 30 days nothing is deleted: sign in during that time to cancel.');
  const password = d.getByLabel('Your password');
  await expect(password).toBeFocused();
  await screen(page, 'personal-data-delete-dialog');
  await checkA11y(page, 'delete account dialog');

  // Cancel leaves everything as it was and gives focus back to the button that opened the dialog.
  await d.getByRole('button', { name: 'Cancel' }).tap();
  await expect(opener).toBeFocused();
  await opener.tap();
  await password.fill('not-my-password');
  await d.getByTestId('delete-account-confirm').tap();
  await expect(d.getByRole('alert')).toHaveText('This password is not right.');
  await expect(password).toBeFocused();

  await password.fill(PASSWORD);
  await d.getByTestId('delete-account-confirm').tap();
  const scheduled = d.getByTestId('deletion-scheduled');
  await expect(scheduled).toContainText('Your account will be deleted on');
  await expect(scheduled).toBeFocused();
  await expect.poll(() => outboxSubjects(page)).toContainEqual(expect.stringMatching(/will be deleted on/));
  await d.getByRole('button', { name: 'Sign out' }).tap();
  await page.waitForURL((u) => u.pathname === '/login');

  // Signing in within the grace period cancels the deletion.
  await logIn(page);
  await expect.poll(() => outboxSubjects(page)).toContainEqual(expect.stringMatching(/will not be deleted/));
});
