/**
 * Cross-origin access for the embedded player (http/cors.ts): a listing page on another origin may call the
 * public player operations (tour, tourViewRecord, tourLeadCreate, POST /tour-visit) — preflight answered,
 * `Access-Control-Allow-Origin: *`, never credentials — while every other operation stays same-origin: no CORS headers
 * for private documents, for mixed documents, or for a request that carries a token; the preflight never allows the
 * Authorization header. Requests come from several origins, as browsers send them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { LEAD_MUTATION, leadInput, seedTour } from './fixtures/live-helpers.js';

const LISTING = 'https://listing.example';
const OTHER = 'http://127.0.0.2:8080';
const TOUR_QUERY = 'query PlayerTour($tourID: ID!) { tour(tourID: $tourID) { id title status { status } } }';
const VIEW = 'mutation($input: TourViewRecordInput!) { tourViewRecord(input: $input) { success } }';

function preflight(url: string, origin: string, requestHeaders = 'content-type') {
  return fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': requestHeaders },
  });
}

function post(url: string, origin: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const allowHeaders = (res: Response) =>
  (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);

describe('cross-origin player operations', () => {
  let t: TestApp;
  let agent: SeededUser;
  let tourId: string;
  beforeAll(async () => {
    t = await startTestApp('pglite');
    agent = await seedUser(t.app, { plan: 'pro' });
    tourId = (await seedTour(t.app, agent)).globalId;
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('answers the preflight of /query from any origin, without credentials or the Authorization header', async () => {
    for (const origin of [LISTING, OTHER]) {
      const res = await preflight(`${t.url}/query`, origin);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      expect(allowHeaders(res)).toContain('content-type');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      // A browser asking to send a token cross-origin is told no: the header is not among the allowed ones.
      const withToken = await preflight(`${t.url}/query`, origin, 'authorization,content-type');
      expect(allowHeaders(withToken)).not.toContain('authorization');
    }
  });

  it('lets a listing page read the public tour, record a view and create a lead', async () => {
    for (const origin of [LISTING, OTHER]) {
      const tour = await post(`${t.url}/query`, origin, { query: TOUR_QUERY, variables: { tourID: tourId } });
      expect(tour.status).toBe(200);
      expect(tour.headers.get('access-control-allow-origin')).toBe('*');
      expect(tour.headers.get('access-control-allow-credentials')).toBeNull();
      expect(((await tour.json()) as { data: { tour: { id: string } } }).data.tour.id).toBe(tourId);

      const view = await post(`${t.url}/query`, origin, {
        query: VIEW,
        variables: { input: { tourId, visitorId: 'visitor_cors_1234', secondsSpent: 3, roomsReached: 1 } },
      });
      expect(view.headers.get('access-control-allow-origin')).toBe('*');
      expect(((await view.json()) as { errors?: unknown }).errors).toBeUndefined();

      const lead = await post(`${t.url}/query`, origin, {
        query: LEAD_MUTATION,
        variables: { input: leadInput(tourId, { leadType: 'CONTACT' }) },
      });
      expect(lead.headers.get('access-control-allow-origin')).toBe('*');
      const leadBody = (await lead.json()) as {
        data?: { tourLeadCreate: { tourLead: { id: string } } };
        errors?: unknown;
      };
      expect(leadBody.errors).toBeUndefined();
      expect(leadBody.data!.tourLeadCreate.tourLead.id).toMatch(/^lead_/);
    }
    // The view beacon's plain route answers the preflight too (a JSON beacon is not a simple request), and its answer
    // is a cross-origin resource: Chromium refuses a no-cors beacon answered "same-origin" (ERR_BLOCKED_BY_RESPONSE).
    const beacon = await preflight(`${t.url}/tour-visit`, LISTING);
    expect(beacon.status).toBe(204);
    expect(beacon.headers.get('access-control-allow-origin')).toBe('*');
    const sent = await fetch(`${t.url}/tour-visit`, {
      method: 'POST',
      headers: { origin: LISTING, 'content-type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify({ tourId, visitorId: 'visitor_cors_1234', secondsSpent: 2 }),
    });
    expect(sent.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(sent.headers.get('access-control-allow-origin')).toBe('*');
    // Private answers stay same-origin resources.
    expect(
      (await post(`${t.url}/query`, LISTING, { query: '{ me { user { id } } }' })).headers.get(
        'cross-origin-resource-policy',
      ),
    ).toBe('same-origin');
  });

  it('keeps private operations same-origin: no CORS headers for them, for mixed documents or with a token', async () => {
    const cases: Array<[string, unknown, Record<string, string>]> = [
      ['private query', { query: '{ me { user { id } } }' }, {}],
      ['private list', { query: '{ tours(first: 5) { totalCount } }' }, {}],
      [
        'mixed document',
        {
          query: `query($tourID: ID!) { tour(tourID: $tourID) { id } me { user { id } } }`,
          variables: { tourID: tourId },
        },
        {},
      ],
      ['fragment spread at the root', { query: `query { ...F } fragment F on Query { me { user { id } } }` }, {}],
      [
        'public document with a token',
        { query: TOUR_QUERY, variables: { tourID: tourId } },
        { authorization: `Bearer ${agent.token}` },
      ],
      ['private mutation', { query: 'mutation { tourDelete(tourId: "x") { success } }' }, {}],
      ['not GraphQL', { query: 'this is not a document' }, {}],
    ];
    for (const [what, body, headers] of cases) {
      const res = await post(`${t.url}/query`, LISTING, body, headers);
      expect(res.headers.get('access-control-allow-origin'), what).toBeNull();
      expect(res.headers.get('access-control-allow-credentials'), what).toBeNull();
    }
    // The same private call from the console's own origin works as before.
    const own = await post(
      `${t.url}/query`,
      t.url,
      { query: '{ me { user { id } } }' },
      { authorization: `Bearer ${agent.token}` },
    );
    expect(((await own.json()) as { data: { me: { user: { id: string } } } }).data.me.user.id).toBe(agent.userId);
  });

  it('leaves other paths alone: no CORS on console routes, the upload and media preflights answer as before', async () => {
    const page = await preflight(`${t.url}/tours`, LISTING);
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    const upload = await fetch(`${t.url}/upload/some/key`, {
      method: 'OPTIONS',
      headers: { origin: LISTING, 'access-control-request-method': 'PUT' },
    });
    expect(upload.status).toBe(204);
    expect(upload.headers.get('access-control-allow-methods')).toBe('PUT, OPTIONS');
    const billing = await post(`${t.url}/billing/checkout`, LISTING, {});
    expect(billing.headers.get('access-control-allow-origin')).toBeNull();
  });
});
