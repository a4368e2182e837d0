/**
 * The public tour answer, cacheable (issue 15): GET /query of the player's query answers with an ETag and
 * Cache-Control a CDN can honour, 304 to a matching If-None-Match, from each node's memory; a change (a marker) is
 * visible to the next request on any node (two app instances on PostgreSQL share one database).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { seedProcessedTour } from './fixtures/tours.js';

/** The player's query (packages/player-element/src/api/queries.ts), as sent. */
const PLAYER_TOUR_QUERY = `query PlayerTour($tourID: ID!) {
  tour(tourID: $tourID) {
    id title description thumbnailURL tourIntroLogoURL listingLink views
    status { status }
    clips { id index frameCount duration highURI lowURI }
    markers { id name description tourId scrollPosition frameIndex isFastTravel }
    agentProfile { fullname contactNumber email profileImageURL }
  }
}`;
const MARKER_SAVE = 'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id name } }';
const MARKER_UPDATE = 'mutation($input: MarkerUpdateInput!) { markerUpdate(input: $input) { id name } }';

const getTour = (base: string, tourID: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/query?${new URLSearchParams({ query: PLAYER_TOUR_QUERY, variables: JSON.stringify({ tourID }) })}`, { headers });
const markerNames = async (r: Response) => ((await r.json()) as { data: { tour: { markers: Array<{ name: string }> } } }).data.tour.markers.map((m) => m.name);

describe.each(DB_KINDS)('public tour answer over GET (%s)', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  let tourId: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await seedUser(t.app, { plan: 'pro' });
    tourId = (await seedProcessedTour(t, owner)).id;
    expect((await t.gql(MARKER_SAVE, { input: { tourId, name: 'Kitchen', frameIndex: 1 } }, owner.token)).errors).toBeUndefined();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('answers the same data as POST, with an ETag and Cache-Control, and 304 to a matching If-None-Match', async () => {
    const post = await t.gql(PLAYER_TOUR_QUERY, { tourID: tourId });
    const first = await getTour(t.url, tourId);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, no-cache');
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(((await first.json()) as { data: unknown }).data).toEqual(post.data);
    // From memory now: same bytes, same tag; a revalidation is 304 with no body.
    const second = await getTour(t.url, tourId);
    expect(second.headers.get('etag')).toBe(etag);
    expect(((await second.json()) as { data: unknown }).data).toEqual(post.data);
    const revalidated = await getTour(t.url, tourId, { 'if-none-match': etag! });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    expect(revalidated.headers.get('etag')).toBe(etag);
  });

  it('shows a marker change to the next request, with a new ETag', async () => {
    const before = await getTour(t.url, tourId);
    const etag = before.headers.get('etag')!;
    const markerId = (await t.gql(PLAYER_TOUR_QUERY, { tourID: tourId })).data.tour.markers[0].id as string;
    expect((await t.gql(MARKER_UPDATE, { input: { id: markerId, name: 'Open-plan kitchen' } }, owner.token)).errors).toBeUndefined();
    const after = await getTour(t.url, tourId, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(await markerNames(after)).toEqual(['Open-plan kitchen']);
  });

  it('keeps signed-in answers and errors out of the cache', async () => {
    const mine = await getTour(t.url, tourId, { authorization: `Bearer ${owner.token}` });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('etag')).toBeNull();
    const missing = await getTour(t.url, 'tour_00000000-0000-4000-8000-000000000000', { origin: 'https://listing.example' });
    expect(missing.headers.get('etag')).toBeNull();
    // An embed on another origin reads the error too (to show "Invalid link" rather than a network error).
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    expect(((await missing.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe('NOT_FOUND');
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('public tour cache across two API nodes (PostgreSQL)', () => {
  let t: TestApp;
  let b: App;
  let bUrl: string;
  beforeAll(async () => {
    t = await startTestApp('postgres');
    const config = loadConfig({ NODE_ENV: 'test' }, { PORT: 0, HOST: '127.0.0.1', DATA_DIR: t.dataDir, LOG_LEVEL: 'silent', JWT_SECRET: t.app.config.jwtSecret, DATABASE_URL: t.app.config.DATABASE_URL!, ROLE: 'api' } as never);
    config.JWT_SECRET = t.app.config.JWT_SECRET;
    config.jwtSecret = t.app.config.jwtSecret;
    b = await buildApp({ config });
    bUrl = (await b.start()).replace('localhost', '127.0.0.1');
    void randomBytes;
  });
  afterAll(async () => {
    await b?.stop();
    await t?.stop();
  });

  it('a marker changed through node A is in the next answer of node B', async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const tourId = (await seedProcessedTour(t, owner)).id;
    const saved = await t.gql(MARKER_SAVE, { input: { tourId, name: 'Lounge', frameIndex: 2 } }, owner.token);
    // Both nodes hold the answer in memory.
    for (const base of [t.url, bUrl, t.url, bUrl]) expect(await markerNames(await getTour(base, tourId))).toEqual(['Lounge']);
    const etagB = (await getTour(bUrl, tourId)).headers.get('etag')!;
    expect((await getTour(bUrl, tourId, { 'if-none-match': etagB })).status).toBe(304);
    // Changed through A; the very next request to B sees it.
    expect((await t.gql(MARKER_UPDATE, { input: { id: saved.data.markerSave.id, name: 'Sunny lounge' } }, owner.token)).errors).toBeUndefined();
    const next = await getTour(bUrl, tourId, { 'if-none-match': etagB });
    expect(next.status).toBe(200);
    expect(await markerNames(next)).toEqual(['Sunny lounge']);
  });
});
