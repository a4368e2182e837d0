/**
 * Every route of the console's route table loads directly (a reload or a bookmark): the server answers an HTML request
 * with the console's index.html, `/upload` included (it showed the server's JSON 404, as the server reserved /upload
 * for its own PUT /upload/<key>, which keeps working), and `GET /` without an Accept header serves the console too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_PATHS } from '../src/services/share-preview/share-card.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROUTE_TABLE = path.resolve(here, '../../console/src/routes/app-routes.tsx');
const SAMPLE_ID = 'tour_0b6c9d9e-2a7e-4f61-9d55-6a3f3c1f1a10';
const INDEX =
  '<!doctype html><html><head><title>Roomwalk console (test build)</title></head><body><div id="root"></div></body></html>';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/** The paths of the console's <Route path="..."> table, parameters filled with a sample id. */
function consoleRoutes(): string[] {
  const source = fs.readFileSync(ROUTE_TABLE, 'utf8');
  const paths = [...source.matchAll(/<Route\s+path="([^"]+)"/g)].map((m) => m[1]!).filter((p) => p !== '*');
  return paths.map((p) => p.replace(/:[A-Za-z]+/g, SAMPLE_ID));
}

describe('console routes load directly', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'roomwalk-console-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
    t = await startTestApp('pglite', { CONSOLE_DIST: dist });
  });
  afterAll(async () => {
    await t?.stop();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('reads the whole route table', () => {
    const routes = consoleRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(25);
    expect(routes).toEqual(
      expect.arrayContaining(['/', '/upload', '/login', `/tour/${SAMPLE_ID}/shots`, '/playerext', '/embedded_example']),
    );
  });

  it('answers an HTML request for every route with the console', async () => {
    const wrong: string[] = [];
    for (const route of consoleRoutes()) {
      for (const accept of ['text/html', BROWSER_ACCEPT]) {
        const res = await fetch(`${t.url}${route}?tourId=${SAMPLE_ID}`, { headers: { accept } });
        const body = await res.text();
        // The share pages are the console's page with the link's card in its head (http/share-page.ts): for an
        // unknown tour, the product's title and noindex.
        const expected = SHARE_PATHS.includes(route as (typeof SHARE_PATHS)[number])
          ? INDEX.replace(/<title>[^<]*<\/title>/, '<title>Roomwalk</title>\n<meta name="robots" content="noindex">')
          : INDEX;
        if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/html') || body !== expected)
          wrong.push(`${route} (${accept.slice(0, 12)}): ${res.status} ${body.slice(0, 60)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('serves the console at / without an Accept header', async () => {
    const res = await fetch(`${t.url}/`, { headers: { accept: '' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toBe(INDEX);
    const star = await fetch(`${t.url}/`, { headers: { accept: '*/*' } });
    expect(await star.text()).toBe(INDEX);
  });

  it("keeps the server's own paths: PUT /upload/<key>, its preflight, and JSON 404s under server prefixes", async () => {
    const put = await fetch(`${t.url}/upload/uploads/nope.mp4?sig=x`, {
      method: 'PUT',
      headers: { 'content-type': 'video/mp4' },
      body: Buffer.alloc(4),
    });
    expect(put.status).toBe(403);
    expect(await put.json()).toMatchObject({ code: 'UPLOAD_INVALID' });
    const pre = await fetch(`${t.url}/upload/uploads/nope.mp4`, {
      method: 'OPTIONS',
      headers: { origin: 'http://elsewhere.test', 'access-control-request-method': 'PUT' },
    });
    expect(pre.status).toBe(204);
    for (const p of ['/media/missing.jpg', '/player/missing.js', '/dev/missing', '/api/missing']) {
      const res = await fetch(`${t.url}${p}`, { headers: { accept: BROWSER_ACCEPT } });
      expect(res.status, p).toBe(404);
      expect(await res.text(), p).not.toBe(INDEX);
    }
    // Missing static files a page asks for are not answered with the console either.
    const img = await fetch(`${t.url}/missing.png`, { headers: { accept: 'image/avif,image/webp,*/*;q=0.8' } });
    expect(img.status).toBe(404);
  });
});
