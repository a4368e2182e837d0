/**
 * Agora in the browser under our Content-Security-Policy: the SDK chunk is served from the player's folder like the
 * bundle, and only a server that issues Agora tokens lets pages reach Agora's gateways. In Chromium, the real SDK
 * (built as the player's build does) joins from a page on /player/ (there is no internet here: the join fails on
 * DNS, but it must never be refused by the policy), and probes of the SDK's gateway URL shapes (WebSocket on the
 * gateway's own port) are allowed with Agora configured and refused without.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGORA_CONNECT_SOURCES } from '../src/http/security.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// Page globals inside page.evaluate (the server project has no DOM types).
declare const window: any;

const here = path.dirname(fileURLToPath(import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const AGORA = {
  AGORA_APP_ID: '970ca35de60c44645bbae8a215061b33',
  AGORA_APP_CERTIFICATE: '5cfd2fd1755d40ecb72977518be15d3b',
};

/** The player folder as the build lays it out: the Agora chunk (built from the player's source) and a probe page. */
async function playerDist(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomwalk-agora-csp-'));
  await build({
    entryPoints: [path.resolve(here, '../../player-element/src/live-call/agora-sdk.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    outfile: path.join(dir, 'tour-player-agora.js'),
    logLevel: 'silent',
  });
  fs.writeFileSync(path.join(dir, 'tour-player.js'), '/* the script-tag bundle */');
  fs.writeFileSync(
    path.join(dir, 'agora-csp.html'),
    '<!doctype html><meta charset="utf-8"><title>agora csp</title><script type="module" src="agora-csp.js"></script>',
  );
  // No inline script: the policy allows scripts from 'self' only.
  fs.writeFileSync(
    path.join(dir, 'agora-csp.js'),
    `window.violations = [];
addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));
window.probe = async () => {
  const ws = (url) => new Promise((resolve) => {
    let s;
    try { s = new WebSocket(url); } catch (e) { return resolve('refused: ' + e.name); }
    s.onerror = () => resolve('error');
    s.onclose = () => resolve('closed');
  });
  const get = (url) => fetch(url, { mode: 'no-cors' }).then(() => 'answered', () => 'failed');
  return Promise.all([
    ws('wss://148-153-25-139.edge.agora.io:4705/'),
    ws('wss://148-153-25-139.edge.sd-rtn.com:4706/'),
    get('https://webrtc2-ap-web-1.agora.io/api/v2/transpond/webrtc?v=2'),
    get('https://webrtc2-2.ap.sd-rtn.com:443/api/v2/transpond/webrtc?v=2'),
  ]);
};
window.joinWithSdk = async (appId) => {
  const AgoraRTC = (await import('./tour-player-agora.js')).default;
  AgoraRTC.setLogLevel(4);
  const client = AgoraRTC.createClient({ mode: 'rtc', codec: 'vp8' });
  window.client = client;
  client.join(appId, '6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b', '007eJxTYBBa', 'viewer-k3j4h5').catch(() => undefined);
  return typeof AgoraRTC.createClient;
};
window.ready = true;`,
  );
  return dir;
}

const cspOf = async (url: string) =>
  Object.fromEntries(
    ((await fetch(url, { headers: { accept: 'text/html' } })).headers.get('content-security-policy') ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((p) => p[0])
      .map(([k, ...v]) => [k!, v]),
  ) as Record<string, string[]>;

describe('Agora and the Content-Security-Policy', () => {
  let dist: string;
  /** One app per setting, shared by the tests (each start costs seconds on a loaded machine). */
  const apps = new Map<string, Promise<TestApp>>();
  beforeAll(async () => {
    dist = await playerDist();
  });
  afterAll(async () => {
    for (const a of apps.values()) await (await a).stop();
    fs.rmSync(dist, { recursive: true, force: true });
  });
  const start = (env: Record<string, string>): Promise<TestApp> => {
    const key = JSON.stringify(env);
    if (!apps.has(key)) apps.set(key, startTestApp('pglite', { PLAYER_DIST: dist, ...env }));
    return apps.get(key)!;
  };

  it("allows Agora's gateways (any port) in connect-src only when the app id and its certificate are both set", async () => {
    const off = await start({});
    const idOnly = await start({ AGORA_APP_ID: AGORA.AGORA_APP_ID });
    const on = await start(AGORA);
    for (const p of ['/playerext/tour_1', '/']) {
      expect((await cspOf(`${off.url}${p}`))['connect-src']).not.toEqual(
        expect.arrayContaining([AGORA_CONNECT_SOURCES[0]]),
      );
      expect((await cspOf(`${idOnly.url}${p}`))['connect-src']).not.toEqual(
        expect.arrayContaining([AGORA_CONNECT_SOURCES[0]]),
      );
      expect((await cspOf(`${on.url}${p}`))['connect-src']).toEqual(
        expect.arrayContaining([
          'https://*.agora.io:*',
          'wss://*.agora.io:*',
          'https://*.sd-rtn.com:*',
          'wss://*.sd-rtn.com:*',
        ]),
      );
      // Scripts stay our own: the SDK is served from /player/.
      expect((await cspOf(`${on.url}${p}`))['script-src']).toEqual(["'self'"]);
    }
  }, 180_000); // three app starts in the test body

  it('serves the SDK chunk from /player/ beside the bundle, loadable as a module from any site', async () => {
    const t = await start(AGORA);
    const res = await fetch(`${t.url}/player/tour-player-agora.js`, { headers: { origin: 'https://listing.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(await res.text()).toContain('edge.agora.io');
  });

  describe.skipIf(!fs.existsSync(CHROMIUM))('in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
      });
    });
    afterAll(async () => {
      await browser?.close();
    });

    async function open(t: TestApp) {
      const page = await browser.newPage();
      const agoraRequests: Array<{ url: string; failure: string | null }> = [];
      page.on('requestfailed', (r) => {
        if (/\.(agora\.io|sd-rtn\.com)(:\d+)?\//.test(r.url()))
          agoraRequests.push({ url: r.url(), failure: r.failure()?.errorText ?? null });
      });
      await page.goto(`${t.url}/player/agora-csp.html`);
      await page.waitForFunction(() => window.ready === true);
      return { page, agoraRequests };
    }

    it('with Agora configured, the real SDK joins (to no network) and the gateway URLs are reached for, all without a violation', async () => {
      const t = await start(AGORA);
      const { page, agoraRequests } = await open(t);
      expect(await page.evaluate((appId) => window.joinWithSdk(appId), AGORA.AGORA_APP_ID)).toBe('function');
      // The SDK asks its access points first; offline that fails on DNS, never on the policy.
      await page.waitForFunction(
        () => window.violations.length > 0 || window.client.connectionState === 'CONNECTING',
        undefined,
        { timeout: 20_000 },
      );
      await expect.poll(() => agoraRequests.length, { timeout: 20_000 }).toBeGreaterThan(0);
      expect(agoraRequests.filter((r) => /CSP|BLOCKED/i.test(r.failure ?? ''))).toEqual([]);
      const probes = await page.evaluate(() => window.probe());
      expect(probes.every((p: string) => !p.startsWith('refused'))).toBe(true);
      expect(await page.evaluate(() => window.violations)).toEqual([]);
      await page.close();
    }, 60_000);

    it('without Agora, the same requests are refused by the policy (the test can tell)', async () => {
      const t = await start({});
      const { page } = await open(t);
      await page.evaluate(() => window.probe());
      const violations: string[] = await page.evaluate(() => window.violations);
      expect(violations).toEqual(
        expect.arrayContaining([
          'connect-src wss://148-153-25-139.edge.agora.io:4705/',
          'connect-src wss://148-153-25-139.edge.sd-rtn.com:4706/',
          expect.stringMatching(/^connect-src https:\/\/webrtc2-ap-web-1\.agora\.io/),
        ]),
      );
      await page.close();
    }, 60_000);
  });
});
