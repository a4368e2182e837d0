/**
 * A person's data on a phone (390×844, touch), against the real server and a tour made by the real pipeline: the agent
 * exports their data from the Account page (progress, then the download: a ZIP whose manifest names them), the link
 * also comes by mail; then they delete their account: the dialog says what goes and when, takes focus in the password
 * field, refuses a wrong password in words, schedules the deletion with the right one and signs them out; the mail
 * says the date; signing in again cancels it (said on screen, kept on the Your data card, and mailed). Asked again,
 * the grace period passes (the server's clock moved) and the operator runs the deletion sweep
 * (`npm run admin -- run-deletion-sweep`): the account no longer signs in, its tour's share link shows the
 * invalid-link message, its files are gone from storage and the database holds no account under its address.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ERROR_TEXTS } from '@roomwalk/shared';
import { strFromU8, unzipSync } from 'fflate';
import { checkA11y, dialog, mailLink, screen } from './support.js';
import { gql } from './embed-support.js';
import {
  adminCommand,
  apiToken,
  logInOnPhone,
  moveServerClock,
  phoneAgentWithTour,
  phoneContext,
  type PhoneAgent,
} from './support/phone-agent.js';

const BASE = process.env.E2E_BASE_URL!;
const PASSWORD = 'Secret123';
const stamp = Date.now().toString(36);
const email = `mydata-${stamp}@example.com`;
const FILES = path.join(process.env.E2E_DATA_DIR!, 'files');

let agent: PhoneAgent;

async function outboxSubjects(p: Page): Promise<string[]> {
  const mails = (await (await p.request.get('/dev/outbox.json')).json()) as Array<{
    to_address: string;
    subject: string;
  }>;
  return mails.filter((m) => m.to_address === email).map((m) => m.subject);
}

/** Every file under a folder of the server's storage (none when the folder is gone). */
const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String) : [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(400_000);
  agent = await phoneAgentWithTour(BASE, browser, {
    email,
    password: PASSWORD,
    name: 'Dara',
    title: 'Data Terrace',
    rooms: [['Kitchen', 20]],
  });
});

test.afterAll(async () => {
  await moveServerClock(BASE, 0);
  await agent?.context.close();
});

test('exports their data: progress, then a ZIP with a manifest, and the link by mail', async () => {
  const page = agent.page;
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
  expect(JSON.parse(strFromU8(zip['profile.json']!)).profile).toMatchObject({ name: 'Dara', surname: 'Agent' });
  expect(await mailLink(page, email, /\/data-export\//)).toBe(href);

  // The ZIP is in storage under the user's exports until the link expires.
  expect(filesUnder(path.join(FILES, 'exports')).some((f) => f.endsWith('.zip'))).toBe(true);
});

test('deletes the account: consequences, focus, a wrong password refused, scheduled and signed out; signing in cancels', async () => {
  const page = agent.page;
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

  // Signing in within the grace period cancels the deletion: said on screen, and the Your data card keeps it.
  await logInOnPhone(page, email, PASSWORD);
  await expect(page.getByText('Your account deletion was cancelled because you signed in.')).toBeVisible();
  await expect.poll(() => outboxSubjects(page)).toContainEqual(expect.stringMatching(/will not be deleted/));
  await page.goto('/account');
  await expect(page.getByTestId('deletion-cancelled')).toHaveText(
    /^Deletion cancelled on \d{1,2} [A-Z][a-z]+ \d{4} when you signed in\.$/,
  );
});

test('after the grace period the sweep deletes the account: no sign-in, no tour, no files, no rows', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const page = agent.page;
  // The tour's folder in storage, as its clips' addresses name it (/media/tours/<folder>/…).
  const tourDir = path.join(FILES, 'tours', new URL(agent.clips[0]!.highURI).pathname.split('/')[3]!);
  expect(filesUnder(tourDir).length, 'the tour has files in storage').toBeGreaterThan(0);
  const shown = await adminCommand('show-account', email);
  expect(shown.ok, shown.output).toBe(true);
  expect(shown.output).toContain('Tours owned: 1');
  expect(shown.output).toContain('No deletion asked.');
  const userId = /account ([0-9a-f-]{36})/.exec(shown.output)![1]!;
  const exportsDir = path.join(FILES, 'exports', userId);
  expect(
    filesUnder(exportsDir).some((f) => f.endsWith('.zip')),
    'the export is in storage',
  ).toBe(true);

  // Asked again (the dialog's request, through the API), and this time nobody signs in.
  const token = await apiToken(BASE, email, PASSWORD);
  await gql(
    BASE,
    'mutation($p: String) { accountDeletionRequest(password: $p) { __typename } }',
    { p: PASSWORD },
    token,
  );
  const scheduled = await adminCommand('show-account', email);
  expect(scheduled.output).toContain('Deletion scheduled');

  // Before the grace period ends the sweep deletes nothing.
  const early = await adminCommand('run-deletion-sweep');
  expect(early.ok, early.output).toBe(true);
  expect(early.output).toMatch(/^Deleted 0 accounts/);
  expect((await adminCommand('show-account', email)).ok).toBe(true);

  // 31 days on by the server's clock, the operator runs the sweep.
  await moveServerClock(BASE, 31 * 86_400_000);
  const swept = await adminCommand('run-deletion-sweep');
  expect(swept.ok, swept.output).toBe(true);
  expect(swept.output).toMatch(/^Deleted 1 account whose grace period had ended/);
  await expect.poll(() => outboxSubjects(page)).toContainEqual(expect.stringMatching(/has been deleted/));

  // The database holds no account under the address.
  const gone = await adminCommand('show-account', email);
  expect(gone.ok).toBe(false);
  expect(gone.output).toBe(`No account with the email ${email}.`);
  // The files are gone from storage: the tour's clips and posters, and the export's ZIP.
  expect(filesUnder(tourDir)).toEqual([]);
  expect(filesUnder(exportsDir)).toEqual([]);

  // A visitor's phone: the tour's share link shows the invalid-link message, nothing of the tour.
  const visitor = await phoneContext(browser);
  const shared = await visitor.newPage();
  await shared.goto(`/playerext?tourId=${agent.tourId}`);
  const message = shared.locator('tour-player [role="alertdialog"]');
  await expect(message).toHaveAttribute('data-kind', 'invalid', { timeout: 30_000 });
  await expect(message).toContainText('This is not a valid tour link.');
  await expect(shared.locator('tour-player')).not.toContainText('Data Terrace');

  // The account no longer signs in.
  await shared.goto('/login');
  await shared.getByLabel('Email').fill(email);
  await shared.getByLabel('Password').fill(PASSWORD);
  await shared.getByRole('button', { name: 'Log in with email' }).tap();
  await expect(shared.getByText(ERROR_TEXTS.loginFailed)).toBeVisible();
  await screen(shared, 'personal-data-deleted-sign-in');
  await visitor.close();
});
