// Test helpers: read which frame and rendition the canvas shows from its pixels.
import type { TourPlayer } from '../src/tour-player/tour-player.component.js';
import { PLAYER_TOUR_QUERY } from '../src/api/queries.js';
import { executeServerCommand } from '@web/test-runner-commands';
// @ts-expect-error served by the stub plugin in web-test-runner.config.mjs
import { STUB, TOURS } from '/__stub.js';
// @ts-expect-error served by the plugin in web-test-runner.config.mjs
import { SERVER, SERVER_TOURS, OWNER_TOKEN, BRANDED_TOKEN } from '/__server.js';

/** The stub API (test/stub-server.mjs): only for faults the real server cannot show (see test/README.md). */
export const stub: string = STUB;
/** The stub's tour ids. */
export const tours: Record<string, string> = TOURS;

/** The real server (buildApp() on PGlite; packages/server/test/fixtures/player-tours.ts). */
export const server: string = SERVER;
/**
 * The real server's tours, made by the pipeline from test/fixtures.mjs generateSourceVideo sources: main, edit,
 * other (1280x720) and portrait (720x1280), 5 clips of 36 frames each (180 frames, 15 fps), markers Entrance 0,
 * Kitchen 40, Bedroom 100; removed (deleted by its owner); missing (an id the server does not know); branded (the same
 * video and markers, of a second company with Custom Company Branding: a logo and the accent #8a1c7c).
 */
export const real: Record<'main' | 'edit' | 'other' | 'portrait' | 'removed' | 'missing' | 'branded', string> = {
  ...SERVER_TOURS,
  missing: 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7dff',
};
/** A bearer token of the real tours' owner, signed by the real server. */
export const ownerToken: string = OWNER_TOKEN;
/** A bearer token of the branded tour's owner. */
export const brandedToken: string = BRANDED_TOKEN;
/** A visitor who has already left their details for a live viewing of `tourId`: a call starts without the form. */
export function rememberLiveLead(tourId: string = real.main): void {
  localStorage.setItem(
    'capturedDetails',
    JSON.stringify({
      id: 'lead-0',
      name: 'Ada',
      surname: null,
      email: 'ada@example.com',
      contactNumber: null,
      leadType: 'LIVE_VIEWING',
      tourId,
    }),
  );
}
/** Forgets the visitor's details and any viewing session they had asked for. */
export function forgetLiveLead(): void {
  localStorage.removeItem('capturedDetails');
  localStorage.removeItem('roomwalk.viewingSessionRequest');
}
/**
 * The real server on the test page's own origin (a pass-through in web-test-runner.config.mjs): for signed-in work,
 * which the product does same-origin (the server refuses a token from another origin).
 */
export const sameOriginServer = `${location.origin}/__api`;

/** A GraphQL call to the real server as the tours' owner; throws on errors unless `allowErrors`. */
export async function ownerGql<T = Record<string, any>>(
  query: string,
  variables: Record<string, unknown> = {},
  allowErrors = false,
): Promise<{ data: T; errors?: { message: string; extensions?: { code?: string } }[] }> {
  const res = await fetch(`${sameOriginServer}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${ownerToken}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = await res.json();
  if (body.errors && !allowErrors) throw new Error(`${query.slice(0, 60)}: ${JSON.stringify(body.errors)}`);
  return body;
}

/** A real tour's clips as the real server answers the player's own public query (GET, no session). */
export async function serverClips(
  tourId: string,
): Promise<{ index: number; frameCount: number; highURI: string; lowURI: string }[]> {
  const res = await fetch(
    `${server}/query?${new URLSearchParams({ query: PLAYER_TOUR_QUERY, variables: JSON.stringify({ tourID: tourId }) })}`,
    { headers: { accept: 'application/json' } },
  );
  const body = await res.json();
  if (!body.data?.tour) throw new Error(`no tour ${tourId}: ${JSON.stringify(body.errors)}`);
  return body.data.tour.clips;
}

export interface ServerMarker {
  id: string;
  name: string;
  description: string | null;
  frameIndex: number;
  isFastTravel: boolean;
  scrollPosition: number | null;
  tourId: string;
}

/** A tour's markers as the real server stores them (read as the owner). */
export async function serverMarkers(tourId: string): Promise<ServerMarker[]> {
  const r = await ownerGql<{ tour: { markers: ServerMarker[] } }>(
    `query($id: ID!) { tour(tourID: $id) { markers { id name description frameIndex isFastTravel scrollPosition tourId } } }`,
    {
      id: tourId,
    },
  );
  return r.data.tour.markers;
}

/** Puts a real tour's markers back to Entrance 0, Kitchen 40, Bedroom 100 through the API (deleting any others). */
export async function resetServerMarkers(tourId: string): Promise<void> {
  for (const m of await serverMarkers(tourId))
    await ownerGql(`mutation($id: ID!) { markerDelete(markerId: $id) { success } }`, { id: m.id });
  for (const [name, frameIndex] of [
    ['Kitchen', 40],
    ['Entrance', 0],
    ['Bedroom', 100],
  ] as const) {
    await ownerGql(`mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }`, {
      input: { name, frameIndex, tourId, description: '', scrollPosition: 0, isFastTravel: true },
    });
  }
}

/**
 * What the browser's driver saw since `requests-start` / `console-capture` (the commands `requests`,
 * `requests-detail`, `console-messages` of web-test-runner.config.mjs). WebKitWebDriver shows neither requests nor the
 * console: there the running test is skipped at this point (test/README.md, "Three engines").
 */
export async function observed<T>(
  test: Mocha.Context,
  command: 'requests' | 'requests-detail' | 'console-messages',
): Promise<T> {
  const seen = (await executeServerCommand(command)) as T | false;
  if (seen === false) test.skip();
  return seen as T;
}

/** Sizes the page's viewport in every engine (web-test-runner.config.mjs, command `viewport`). */
export async function setViewport(size: { width: number; height: number }): Promise<void> {
  await executeServerCommand('viewport', size);
}

/** Waits (on animation frames, not sleeps) until cond() is truthy. */
export async function until<T>(cond: () => T | Promise<T>, what = 'condition', timeoutMs = 15_000): Promise<T> {
  const start = performance.now();
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (performance.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  }
}

const recorded = new WeakMap<EventTarget, Event[]>();

/** The first event of a type fired since the player was created (or waits for it). */
export async function firstEvent<T extends Event>(target: EventTarget, type: string, timeoutMs = 15_000): Promise<T> {
  const seen = () => recorded.get(target)?.find((e) => e.type === type) as T | undefined;
  return until(seen, `${type} event`, timeoutMs) as Promise<T>;
}

/** All recorded events of a type so far. */
export function eventsOf<T extends Event>(target: EventTarget, type: string): T[] {
  return (recorded.get(target) ?? []).filter((e) => e.type === type) as T[];
}

export function once<T extends Event>(target: EventTarget, type: string, timeoutMs = 15_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no ${type} event`)), timeoutMs);
    target.addEventListener(
      type,
      (e) => {
        clearTimeout(t);
        resolve(e as T);
      },
      { once: true },
    );
  });
}

export function canvasOf(p: TourPlayer): HTMLCanvasElement {
  return p.shadowRoot!.querySelector('canvas')!;
}

/**
 * A readable 2D copy of the player's canvas (which shows bitmaps through a 'bitmaprenderer' context: not readable
 * itself).
 */
export function pixelsOf(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  const ctx = copy.getContext('2d', { willReadFrequently: true })!;
  // At the canvas's size: a thumbnail is shown at its own size and scaled by the canvas, like on screen.
  ctx.drawImage(canvas, 0, 0, copy.width, copy.height);
  return ctx;
}

/** Decodes the 16-bit frame barcode (40 px blocks along the top of the source). */
export function readBarcode(canvas: HTMLCanvasElement, source = { width: 1280, height: 720 }): number {
  const ctx = pixelsOf(canvas);
  const sx = canvas.width / source.width;
  const sy = canvas.height / source.height;
  const y = Math.floor(20 * sy);
  const row = ctx.getImageData(0, y, Math.ceil(640 * sx), 1).data;
  let n = 0;
  for (let k = 0; k < 16; k++) {
    const x = Math.floor((40 * k + 20) * sx);
    const lum = row[x * 4]! * 0.3 + row[x * 4 + 1]! * 0.59 + row[x * 4 + 2]! * 0.11;
    if (lum > 128) n |= 1 << k;
  }
  return n;
}

/**
 * Detail of the fine-line patch (test/fixtures.mjs PATCH: one-pixel horizontal lines of black and white in the source,
 * 160x80 px, 200/120 px from the bottom-right corner) on the canvas: the standard deviation of luma inside it. The
 * 360p rendition's scaling averaged the lines to flat grey (measured on the 650x366 canvas of a 1000x600 player:
 * 0.4); the 720p rendition keeps them, and drawn at about half size they alias into bands (measured: 52).
 */
export function patchDetail(canvas: HTMLCanvasElement, source = { width: 1280, height: 720 }): number {
  const ctx = pixelsOf(canvas);
  const sx = canvas.width / source.width;
  const sy = canvas.height / source.height;
  // 10 source pixels in from each edge of the patch.
  const x = Math.ceil((source.width - 200 + 10) * sx);
  const y = Math.ceil((source.height - 120 + 10) * sy);
  const d = ctx.getImageData(x, y, Math.floor(140 * sx), Math.floor(60 * sy)).data;
  let sum = 0;
  let squares = 0;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) {
    const l = d[i]! * 0.3 + d[i + 1]! * 0.59 + d[i + 2]! * 0.11;
    sum += l;
    squares += l * l;
    n++;
  }
  const mean = sum / n;
  return Math.sqrt(Math.max(0, squares / n - mean * mean));
}

/** Below this patch detail the canvas shows the 360p rendition (see patchDetail). */
export const LOW_DETAIL = 10;

/**
 * True when the canvas shows the low (360p) rendition: the fine lines of the source are averaged away. Only on the
 * largest canvas (650 px wide in landscape, a player of 1000x600 or more): on a smaller one both renditions look flat
 * (measured on a 420 px canvas: 0.9 and 0.4), so it refuses rather than guess.
 */
export function showsLowRendition(canvas: HTMLCanvasElement, source = { width: 1280, height: 720 }): boolean {
  if (Math.min(canvas.width, canvas.height) < 360)
    throw new Error(`the rendition cannot be told on a ${canvas.width}x${canvas.height} canvas`);
  return patchDetail(canvas, source) < LOW_DETAIL;
}

export async function resetStub(): Promise<void> {
  await fetch(`${stub}/__reset`, { method: 'POST' });
}

export async function stubLog(): Promise<
  { op: string; variables: Record<string, unknown>; authorization: string | null }[]
> {
  return (await fetch(`${stub}/__log`)).json();
}

export async function makePlayer(
  attrs: Record<string, string | boolean>,
  props: Partial<TourPlayer> = {},
  size = { width: 1000, height: 600 },
): Promise<TourPlayer> {
  const p = document.createElement('tour-player');
  p.style.width = `${size.width}px`;
  p.style.height = `${size.height}px`;
  p.style.display = 'block';
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false) continue;
    p.setAttribute(k, v === true ? '' : v);
  }
  Object.assign(p, props);
  const log: Event[] = [];
  recorded.set(p, log);
  for (const t of [
    'tour-ready',
    'tour-error',
    'tour-status-change',
    'tour-frame-change',
    'tour-marker-change',
    'tour-notice',
  ])
    p.addEventListener(t, (e) => log.push(e));
  document.body.append(p);
  return p;
}

export function cleanup(): void {
  for (const el of document.querySelectorAll('tour-player, iframe')) el.remove();
}

export function shadowText(p: HTMLElement): string {
  return p.shadowRoot?.textContent?.replace(/\s+/g, ' ') ?? '';
}
