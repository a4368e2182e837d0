/**
 * The agent of the phone journeys about who sees a tour and a person's data (audience-links, tour-access,
 * personal-data): signed up through the API and activated from the development outbox, a tour uploaded and processed
 * by the real pipeline with its rooms named, and the agent signed in to the console on a phone (390x844, touch).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { OAUTH_CLIENT } from '@roomwalk/shared';
import { addMarkers, gql, REPO, signUpAgent, testVideo, uploadTour } from '../embed-support.js';

export const PHONE_DEVICE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
} as const;

export const phoneContext = (browser: Browser): Promise<BrowserContext> => browser.newContext(PHONE_DEVICE);

export interface TourClip {
  index: number;
  frameCount: number;
  highURI: string;
  lowURI: string;
}

export interface PhoneAgent {
  email: string;
  password: string;
  token: string;
  tourId: string;
  /** The processed tour's clips, in order (as the agent's own player gets them). */
  clips: TourClip[];
  context: BrowserContext;
  page: Page;
}

/** The first frame of each clip: rooms named on clip boundaries hide exactly their own clips in an audience link. */
export const clipStarts = (clips: readonly TourClip[]): number[] => {
  let at = 0;
  return clips.map((c) => {
    const start = at;
    at += c.frameCount;
    return start;
  });
};

/** Signs in on the console's login page (tapped, as on a phone) and waits for the tours list. */
export async function logInOnPhone(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in with email' }).tap();
  await page.waitForURL((u) => u.pathname === '/');
}

/** A session token through the password grant, as the console gets one (throws when the sign-in is refused). */
export async function apiToken(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${OAUTH_CLIENT.id}:${OAUTH_CLIENT.secret}`).toString('base64')}`,
    },
    body: JSON.stringify({ grant_type: 'password', username: email, password }),
  });
  const { access_token: token } = (await res.json()) as { access_token?: string };
  if (!token) throw new Error(`sign-in of ${email} refused (${res.status})`);
  return token;
}

/**
 * An agent with one processed tour titled `title`, its rooms named by `rooms` (from the clips' first frames, or fixed
 * frames), signed in on a phone of `browser`.
 */
export async function phoneAgentWithTour(
  base: string,
  browser: Browser,
  o: {
    email: string;
    password: string;
    name: string;
    title: string;
    rooms: ReadonlyArray<readonly [string, number]> | ((starts: number[]) => ReadonlyArray<readonly [string, number]>);
  },
): Promise<PhoneAgent> {
  const token = await signUpAgent(base, { email: o.email, password: o.password, name: o.name, surname: 'Agent' });
  const { tourId } = await uploadTour(base, token, testVideo(), { title: o.title, timeoutMs: 360_000 });
  const { tour } = await gql<{ tour: { clips: TourClip[] } }>(
    base,
    'query($id: ID!) { tour(tourID: $id) { clips { index frameCount highURI lowURI } } }',
    { id: tourId },
    token,
  );
  const clips = [...tour.clips].sort((a, b) => a.index - b.index);
  await addMarkers(base, token, tourId, typeof o.rooms === 'function' ? o.rooms(clipStarts(clips)) : o.rooms);
  const context = await phoneContext(browser);
  const page = await context.newPage();
  await logInOnPhone(page, o.email, o.password);
  return { email: o.email, password: o.password, token, tourId, clips, context, page };
}

/**
 * Moves the test server's calendar clock `offsetMs` ahead of the system's (POST /dev/clock, development servers only):
 * what expires by the date (audience links, an account's grace period) is then seen as expired.
 */
export async function moveServerClock(base: string, offsetMs: number): Promise<void> {
  const res = await fetch(`${base}/dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ offsetMs }),
  });
  expect(res.status, `POST /dev/clock ${offsetMs}`).toBe(200);
}

/**
 * `npm run admin -- <args>` on the test server's data folder, as an operator runs it: the command asks the running
 * server over the folder's admin socket. Answers what it printed and whether it succeeded.
 */
export async function adminCommand(...args: string[]): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'admin', '--', ...args], {
      cwd: REPO,
      env: {
        ...process.env,
        DATA_DIR: process.env.E2E_DATA_DIR,
        DATABASE_URL: '',
        NODE_ENV: 'development',
        LOG_LEVEL: 'silent',
      },
      // tsx compiles the CLI on a cold start: slow on a loaded machine.
      timeout: 180_000,
    });
    return { ok: true, output: stdout.trim() };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; code?: number };
    if (typeof e.code !== 'number') throw err;
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}`.trim() };
  }
}
