/**
 * Helpers of the cross-origin embed test (embed.spec.ts): a tour made by the real pipeline on the running
 * server (sign-up, activation mail, upload of a generated video, processing, a Kitchen marker), the embed snippets read
 * from docs/embedding.md at test time, the React example bundled with esbuild, and a listing site on another site.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { DEV_TURNSTILE_TOKEN, OAUTH_CLIENT } from '@roomwalk/shared';
import { cachedVideoSync } from '../../../scripts/test-video-cache.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(here, '../../..');

/** The frames the docs' host-message snippet names: roomwalk_scroll to 12, roomwalk_marker to 45 (the Kitchen). */
export const KITCHEN_FRAME = 45;

export interface RealTour {
  tourId: string;
  totalFrames: number;
}

/** A GraphQL call to the real server (throws on errors). */
export async function gql<T = Record<string, any>>(
  base: string,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<T> {
  const res = await fetch(`${base}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: unknown };
  if (body.errors || !body.data) throw new Error(`GraphQL failed: ${JSON.stringify(body.errors)}`);
  return body.data;
}

/** Polls `check` every 250 ms until it gives a value (a server-side state the journey waits on). */
export async function poll<T>(
  check: () => Promise<T | null | undefined | false>,
  what: string,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * A walkthrough stand-in (testsrc2: every frame differs), made once per machine (scripts/test-video-cache.mjs): 11 s
 * (the shortest tour is 10 s) 1280x720 by default; the phone touch test (phone-touch.spec.ts) also makes a 60 s one
 * and a portrait one.
 */
export function testVideo(seconds = 11, portrait = false): string {
  const size = portrait ? '720x1280' : '1280x720';
  return cachedVideoSync(
    [
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${size}:rate=30:duration=${seconds}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
    ],
    { name: `walk-${seconds}s-${size}.mp4` },
  );
}

/** An agent signed up through the API, activated from the development outbox and logged in; answers their token. */
export async function signUpAgent(
  base: string,
  agent: { email: string; password: string; name: string; surname: string },
): Promise<string> {
  await gql(base, 'mutation($input: UserRegisterInput!) { userRegister(input: $input) { id } }', {
    input: {
      username: agent.email,
      password: agent.password,
      name: agent.name,
      surname: agent.surname,
      acceptedTerms: true,
      turnstileToken: DEV_TURNSTILE_TOKEN,
    },
  });
  const link = await poll(
    async () => {
      const mails = (await (await fetch(`${base}/dev/outbox.json`)).json()) as Array<{
        to_address: string;
        links: string[];
      }>;
      return mails
        .filter((m) => m.to_address.toLowerCase() === agent.email.toLowerCase())
        .flatMap((m) => m.links)
        .find((l) => /\/account\/activate\?token=/.test(l));
    },
    'the activation mail',
    15_000,
  );
  await gql(base, 'mutation($t: String!) { userActivation(token: $t) { id } }', {
    t: new URL(link).searchParams.get('token'),
  });
  const login = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${OAUTH_CLIENT.id}:${OAUTH_CLIENT.secret}`).toString('base64')}`,
    },
    body: JSON.stringify({ grant_type: 'password', username: agent.email, password: agent.password }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  if (!token) throw new Error(`login failed (${login.status})`);
  return token;
}

/**
 * Uploads a video the way the console does (presigned PUT, then submit), optionally titles it, and waits until it is
 * processed.
 */
export async function uploadTour(
  base: string,
  token: string,
  file: string,
  o: { title?: string; timeoutMs: number },
): Promise<{ tourId: string; totalFrames: number }> {
  const url = await gql<{
    fileGetPreSignedUrl: { uploadURL: string; key: string; headers: Array<{ key: string; value: string }> };
  }>(
    base,
    'mutation($ext: String!) { fileGetPreSignedUrl(input: $ext) { uploadURL key headers { key value } } }',
    { ext: 'mp4' },
    token,
  );
  const p = url.fileGetPreSignedUrl;
  const put = await fetch(p.uploadURL, {
    method: 'PUT',
    headers: Object.fromEntries(p.headers.map((h) => [h.key, h.value])),
    body: fs.readFileSync(file),
  });
  if (put.status !== 200) throw new Error(`upload answered ${put.status}`);
  const submitted = await gql<{ fileSubmitPreSignedUpload: { tourId: string } }>(
    base,
    'mutation($key: String!) { fileSubmitPreSignedUpload(input: { key: $key }) { tourId } }',
    { key: p.key },
    token,
  );
  const tourId = submitted.fileSubmitPreSignedUpload.tourId;
  if (o.title)
    await gql(
      base,
      'mutation($input: TourSaveInput!) { tourSave(input: $input) { id } }',
      { input: { id: tourId, title: o.title } },
      token,
    );
  const tour = await poll(
    async () => {
      const d = await gql<{
        tour: { status: { status: string }; logs: unknown; clips: Array<{ frameCount: number }> };
      }>(
        base,
        'query($id: ID!) { tour(tourID: $id) { status { status } logs { status error } clips { frameCount } } }',
        { id: tourId },
        token,
      );
      if (d.tour.status.status === 'FAILED') throw new Error(`processing failed: ${JSON.stringify(d.tour.logs)}`);
      return d.tour.status.status === 'PROCESSED' ? d.tour : null;
    },
    'the tour to be processed',
    o.timeoutMs,
  );
  return { tourId, totalFrames: tour.clips.reduce((n, c) => n + c.frameCount, 0) };
}

/** Adds fast-travel markers (name, frame) to a tour. */
export async function addMarkers(
  base: string,
  token: string,
  tourId: string,
  markers: ReadonlyArray<readonly [string, number]>,
): Promise<void> {
  for (const [name, frameIndex] of markers)
    await gql(
      base,
      'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }',
      { input: { tourId, name, frameIndex, isFastTravel: true } },
      token,
    );
}

/**
 * Signs an agent up through the API, activates them from the development outbox, uploads and processes a tour (11 s
 * landscape with a Kitchen marker unless `o` says otherwise).
 */
export async function makeRealTour(
  base: string,
  o: { seconds?: number; portrait?: boolean; markers?: Array<[string, number]> } = {},
): Promise<RealTour> {
  const email = `embed-${Date.now()}-${process.pid}-${Math.random().toString(36).slice(2, 6)}@example.com`;
  const token = await signUpAgent(base, { email, password: 'Embed-Test-2026', name: 'Emma', surname: 'Embed' });
  const tour = await uploadTour(base, token, testVideo(o.seconds, o.portrait), {
    timeoutMs: Math.max(240_000, (o.seconds ?? 11) * 6000),
  });
  await addMarkers(base, token, tour.tourId, o.markers ?? [['Kitchen', KITCHEN_FRAME]]);
  return tour;
}

/** The fenced code blocks of a Markdown file, in order, with their language. */
export function codeBlocks(file: string): Array<{ lang: string; code: string }> {
  const text = fs.readFileSync(path.join(REPO, file), 'utf8');
  return [...text.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, code: m[2]!.replace(/\n$/, '') }));
}

/** The embed snippets of docs/embedding.md, found by what they contain. */
export function embedSnippets() {
  const blocks = codeBlocks('docs/embedding.md');
  const find = (lang: string, needle: string) => {
    const b = blocks.find((x) => x.lang === lang && x.code.includes(needle));
    if (!b) throw new Error(`docs/embedding.md has no ${lang} block with ${needle}`);
    return b.code;
  };
  return {
    scriptTag: find('html', '/player/tour-player.js'),
    drivenIframe: find('html', 'hostOrigins='),
    hostMessages: find('js', 'roomwalk_marker'),
  };
}

/** Fills a snippet's placeholders: the product's origin, the listing site's origin and the tour id. */
export function fill(snippet: string, v: { product: string; site: string; tourId: string }): string {
  return snippet
    .replaceAll('https://YOUR-ROOMWALK', v.product)
    .replaceAll('https://YOUR-SITE', v.site)
    .replaceAll('tour_…', v.tourId);
}

/** Bundles examples/react/main.tsx the way a listing site's build would (the package's esm build for bundlers). */
export async function buildReactExample(): Promise<string> {
  const out = await build({
    entryPoints: [path.join(REPO, 'examples/react/main.tsx')],
    bundle: true,
    format: 'esm',
    write: false,
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    alias: { '@roomwalk/player-element/react': path.join(REPO, 'packages/player-element/dist/esm/react.js') },
    absWorkingDir: path.join(REPO, 'examples'),
    logLevel: 'error',
  });
  return out.outputFiles[0]!.text;
}

/** A static listing site on `localhost` (another site than the product on 127.0.0.1): path -> [type, body]. */
export async function startListingSite(
  files: Record<string, [string, string]>,
): Promise<{ origin: string; stop: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const f = files[u.pathname];
    if (!f) {
      res.writeHead(u.pathname === '/favicon.ico' ? 204 : 404).end();
      return;
    }
    res.writeHead(200, { 'content-type': f[0], 'cache-control': 'no-store' }).end(f[1]);
  });
  await new Promise<void>((r) => server.listen(0, 'localhost', r));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://localhost:${port}`,
    stop: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A listing page around a snippet. */
export const listingPage = (title: string, body: string): string =>
  `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>\n<body>\n<h1>${title}</h1>\n${body}\n</body>\n</html>\n`;

export interface PlayerState {
  frame: number;
  total: number;
  colours: number;
  hash: string;
}

/**
 * Runs in the page (each engine's driver sends its source): what its <tour-player> shows, its frame and the canvas
 * pixels (distinct colours, a hash); null before the canvas has a size.
 */
export function readPlayerState(): PlayerState | null {
  const el = document.querySelector('tour-player') as
    | (HTMLElement & { displayed: { frame: number } | null; totalFrames: number })
    | null;
  const c = el?.shadowRoot?.querySelector('canvas');
  if (!el || !c?.width) return null;
  // Through a 2D copy: the player paints with a bitmaprenderer context, which has no pixels to read.
  const k = document.createElement('canvas');
  k.width = c.width;
  k.height = c.height;
  const x = k.getContext('2d')!;
  x.drawImage(c, 0, 0);
  const d = x.getImageData(0, 0, c.width, c.height).data;
  const colours = new Set<number>();
  let h = 0;
  // About 2,000 samples whatever the canvas size (a fixed stride saw too few colours on a small canvas).
  const stride = 4 * Math.max(1, Math.floor(d.length / 4 / 2000));
  for (let i = 0; i < d.length; i += stride) {
    colours.add((d[i]! >> 4) | ((d[i + 1]! >> 4) << 4) | ((d[i + 2]! >> 4) << 8));
    h = (h * 31 + d[i]! + d[i + 1]! * 7) | 0;
  }
  // The frame on the canvas (not the one asked for): `displayed` is what was drawn.
  return { frame: el.displayed?.frame ?? -1, total: el.totalFrames, colours: colours.size, hash: String(h) };
}
