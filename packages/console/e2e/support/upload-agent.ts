/**
 * An agent on the real upload screen (upload-conversion.spec.ts, upload.bench.ts): signed up through the API, logged in
 * through the form, with the upload flow's debug lines and every progress line the dialog showed recorded; a file
 * picked on /upload becomes a titled tour, answered once PROCESSED with the moments the journey passed.
 */
import { expect, type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { dialog } from '../support.js';
import { gql, poll, signUpAgent } from '../embed-support.js';

const base = () => process.env.E2E_BASE_URL!;
const stamp = Date.now().toString(36);

export interface Agent {
  context: BrowserContext;
  page: Page;
  token: string;
  /** The upload flow's debug lines ('[upload] …'). */
  log: string[];
  /** Every progress line the uploading dialog showed. */
  lines: () => Promise<string[]>;
}

export interface Tour {
  id: string;
  videoInfo: { width: number; height: number };
  clips: Array<{ index: number; frameCount: number; highURI: string }>;
}

/** performance-style moments (Date.now()) of one upload: the pick, the submit answered (Tour Info shown), PROCESSED. */
export interface UploadTimes {
  picked: number;
  submitted: number;
  processed: number;
}

export const totalFrames = (t: Tour): number => t.clips.reduce((n, c) => n + c.frameCount, 0);

/** A phone's uplink on this page: `bitsPerSecond` up, downloads as they are. */
/**
 * One DevTools session per page for its network conditions: a condition set through one session stays in force while
 * that session lives, so a later call through a new session could not lift an earlier limit.
 */
const networkSessions = new WeakMap<Page, Promise<CDPSession>>();

export async function limitUplink(page: Page, bitsPerSecond: number): Promise<void> {
  let session = networkSessions.get(page);
  if (!session) {
    session = page
      .context()
      .newCDPSession(page)
      .then(async (s) => {
        await s.send('Network.enable');
        return s;
      });
    networkSessions.set(page, session);
  }
  const cdp = await session;
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: bitsPerSecond / 8,
  });
}

/** Records, in the page's `__rwUploadLines`, every progress line the uploading dialog shows (each change once). */
export async function recordUploadLines(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __rwUploadLines: string[] }).__rwUploadLines = seen;
    new MutationObserver(() => {
      const t = document.querySelector('[data-testid="upload-progress-line"]')?.textContent ?? '';
      if (t && seen[seen.length - 1] !== t) seen.push(t);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

let count = 0;
export async function newAgent(browser: Browser): Promise<Agent> {
  const email = `convert-${stamp}-${++count}@example.com`;
  const token = await signUpAgent(base(), { email, password: 'Walkthrough1', name: 'Thandi', surname: 'Convert' });
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  await recordUploadLines(context);
  const page = await context.newPage();
  const log: string[] = [];
  page.on('console', (m) => {
    if (m.text().startsWith('[upload]')) log.push(m.text());
  });
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('Walkthrough1');
  await page.getByRole('button', { name: 'Log in with email' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  return {
    context,
    page,
    token,
    log,
    lines: () => page.evaluate(() => (window as unknown as { __rwUploadLines: string[] }).__rwUploadLines),
  };
}

/** Picks the file on /upload, saves a title in the Tour Info dialog, and answers the tour once PROCESSED. */
export async function uploadToTour(
  a: Agent,
  file: string,
  title: string,
  timeoutMs = 240_000,
): Promise<Tour & { times: UploadTimes }> {
  const { page } = a;
  await page.goto('/upload');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload a video' }).click();
  await (await chooser).setFiles(file);
  const picked = Date.now();
  const info = dialog(page, 'Tour Info');
  const failed = page.getByTestId('upload-error-detail');
  await expect(info.or(failed)).toBeVisible({ timeout: timeoutMs });
  const submitted = Date.now();
  await expect(failed, 'the upload screen must accept this file').toHaveCount(0);
  await info.getByLabel('Title').fill(title);
  await info.getByRole('button', { name: 'Done' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  const card = page.locator('article.tour-card', { hasText: title });
  await expect(card).toHaveCount(1, { timeout: 30_000 });
  const tourId = (await card.getAttribute('data-tour-id'))!;
  const tour = await poll(
    async () => {
      const d = await gql<{ tour: Tour & { status: { status: string }; logs: unknown } }>(
        base(),
        'query($id: ID!) { tour(tourID: $id) { id status { status } logs { status error } videoInfo { width height } clips { index frameCount highURI } } }',
        { id: tourId },
        a.token,
      );
      if (d.tour.status.status === 'FAILED') throw new Error(`processing failed: ${JSON.stringify(d.tour.logs)}`);
      return d.tour.status.status === 'PROCESSED' ? d.tour : null;
    },
    'the tour to be processed',
    timeoutMs,
  );
  return { ...tour, times: { picked, submitted, processed: Date.now() } };
}
