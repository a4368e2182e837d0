/**
 * The player's test stub (packages/player-element/test/stub-server.mjs) stands in for the real server only for faults
 * the real server cannot be made to show (see packages/player-element/test/README.md). It must answer what the real
 * server answers: the player's own tour document, sent the way the player sends it (GET without a session,
 * from another origin), gets the same status, media type, CORS header and the same shape of body (every field, at every
 * level) from both, for a tour and for an unknown tour; the stub's failing tour is worded as the real server words a
 * failure of its own; the visitor's lead (tourLeadCreate, which the live-call tests take from the stub) and the
 * editor's marker calls (which the AI-marker tests make to the stub) have the same answers from both, with and
 * without a session.
 */
import { DEV_TURNSTILE_TOKEN } from '@roomwalk/shared';
import { toClientError } from '../src/graphql/errors.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { seedProcessedTour } from './fixtures/tours.js';
import { MARKER_DELETE, MARKER_SAVE, MARKER_UPDATE, PLAYER_TOUR_QUERY } from '../../player-element/src/api/queries.js';
// The one lead document, which the live panel and the lead gate both send (api/tour-lead.ts, free of lit).
import { TOUR_LEAD_CREATE } from '../../player-element/src/api/tour-lead.js';
// @ts-expect-error: a plain .mjs test helper of the player package, without types.
import { startStub, INTERNAL_ERROR } from '../../player-element/test/stub-server.mjs';
// @ts-expect-error: as above.
import { generateTestFixtures } from '../../player-element/test/fixtures.mjs';

const ORIGIN = 'http://localhost:8000';
const UNKNOWN = 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7dff';
const STUB_MAIN = 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d10';
const STUB_FAILING = 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d17';

/** The shape of a JSON value: objects as their sorted keys (recursively), arrays as the shape of their first item. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, shape((v as Record<string, unknown>)[k])]),
    );
  return 'value'; // null or a value: the same tour differs in values, never in fields
}

async function ask(base: string, tourID: string) {
  const url = `${base}/query?${new URLSearchParams({ query: PLAYER_TOUR_QUERY, variables: JSON.stringify({ tourID }) })}`;
  const res = await fetch(url, { headers: { accept: 'application/json', origin: ORIGIN } });
  return {
    status: res.status,
    type: (res.headers.get('content-type') ?? '').split(';')[0],
    acao: res.headers.get('access-control-allow-origin'),
    body: (await res.json()) as {
      data?: { tour?: Record<string, unknown> } | null;
      errors?: Array<{ extensions?: { code?: string } }>;
    },
  };
}

describe('the player test stub answers as the real server', () => {
  let t: TestApp;
  let stub: { origin: string; stop: () => Promise<void> };
  let tourId: string;
  let ownerToken: string;
  beforeAll(async () => {
    generateTestFixtures();
    t = await startTestApp('pglite');
    const agent = await seedUser(t.app, { plan: 'pro' });
    const tour = await seedProcessedTour(t, agent, 2);
    tourId = tour.id;
    ownerToken = agent.token;
    await t.app.services.db
      .insertInto('markers')
      .values({
        tour_id: tour.row.id,
        name: 'Kitchen',
        description: '',
        frame_index: 40,
        scroll_position: 0,
        is_fast_travel: true,
      })
      .execute();
    // The same tour id on the stub, backed by its 'main' fixture.
    stub = await startStub({ extraTours: { [tourId]: 'main' } });
  });
  afterAll(async () => {
    await stub?.stop();
    await t?.stop();
  });

  it('the player tour document: same status, media type, CORS and body shape', async () => {
    const real = await ask(t.url, tourId);
    const fake = await ask(stub.origin, tourId);
    expect(real.body.errors).toBeUndefined();
    expect(fake.status).toBe(real.status);
    expect(fake.type).toBe(real.type);
    expect(fake.acao).toBe(real.acao);
    // Markers: the stub gives extra tours none; compare a tour's fields and a marker's fields separately.
    const { markers: realMarkers, ...realTour } = real.body.data!.tour!;
    const { markers: fakeMarkers, ...fakeTour } = fake.body.data!.tour!;
    expect(shape(fakeTour)).toEqual(shape(realTour));
    expect((realMarkers as unknown[]).length).toBe(1);
    const stubMain = await ask(stub.origin, 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d10');
    expect(shape(stubMain.body.data!.tour!.markers)).toEqual(shape(realMarkers));
    expect(fakeMarkers).toEqual([]);
  });

  it('an unknown tour: same status, error code and body shape', async () => {
    const real = await ask(t.url, UNKNOWN);
    const fake = await ask(stub.origin, UNKNOWN);
    expect(fake.status).toBe(real.status);
    expect(fake.acao).toBe(real.acao);
    expect(fake.body.errors?.[0]?.extensions?.code).toBe(real.body.errors?.[0]?.extensions?.code);
    expect(fake.body.data ?? null).toEqual(real.body.data ?? null);
  });

  it("the stub's failing tour: worded as the real server words a failure of its own", async () => {
    const fake = await ask(stub.origin, STUB_FAILING);
    const real = toClientError(new Error('Database unavailable'));
    expect(INTERNAL_ERROR).toEqual({ message: real.message, code: real.extensions.code });
    expect(fake.status).toBe(200);
    expect(fake.body.data ?? null).toBeNull();
    expect(fake.body.errors?.[0]).toMatchObject({ message: real.message, extensions: { code: real.extensions.code } });
  });

  it("the visitor's lead: same status, CORS and body shape", async () => {
    const send = async (base: string, tourId: string) => {
      const input = {
        name: 'Vera',
        surname: 'Visitor',
        email: 'vera@example.com',
        contactNumber: '+27 825550199',
        turnstileToken: DEV_TURNSTILE_TOKEN,
        leadType: 'LIVE_VIEWING',
        tourId,
      };
      const res = await fetch(`${base}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', origin: ORIGIN },
        body: JSON.stringify({ query: TOUR_LEAD_CREATE, variables: { input } }),
      });
      return {
        status: res.status,
        acao: res.headers.get('access-control-allow-origin'),
        body: (await res.json()) as { data?: { tourLeadCreate?: unknown }; errors?: unknown },
      };
    };
    const real = await send(t.url, tourId);
    const fake = await send(stub.origin, STUB_MAIN);
    expect(real.body.errors).toBeUndefined();
    expect(fake.status).toBe(real.status);
    expect(fake.acao).toBe(real.acao);
    expect(shape(fake.body)).toEqual(shape(real.body));
  });

  it("the editor's marker calls: same status and body shape, and the same refusal without a session", async () => {
    const post = async (base: string, query: string, variables: Record<string, unknown>, token: string | null) => {
      const res = await fetch(`${base}/query`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ query, variables }),
      });
      return {
        status: res.status,
        body: (await res.json()) as {
          data?: Record<string, { id?: string }> | null;
          errors?: Array<{ message: string; extensions?: { code?: string } }>;
        },
      };
    };
    const both = async (
      query: string,
      variables: (tour: string, marker?: string) => Record<string, unknown>,
      ids: { real?: string; fake?: string } = {},
    ) => ({
      real: await post(t.url, query, variables(tourId, ids.real), ownerToken),
      fake: await post(stub.origin, query, variables(STUB_MAIN, ids.fake), 'test-token'),
    });
    const save = await both(MARKER_SAVE, (tour) => ({
      input: { name: 'Hallway', description: '', tourId: tour, scrollPosition: 0, isFastTravel: true, frameIndex: 60 },
    }));
    expect(save.real.body.errors).toBeUndefined();
    expect(save.fake.status).toBe(save.real.status);
    expect(shape(save.fake.body)).toEqual(shape(save.real.body));
    const ids = { real: save.real.body.data!.markerSave!.id, fake: save.fake.body.data!.markerSave!.id };
    const update = await both(
      MARKER_UPDATE,
      (_tour, id) => ({ input: { id, name: 'Galley', description: '', isFastTravel: true } }),
      ids,
    );
    expect(update.real.body.errors).toBeUndefined();
    expect(update.fake.status).toBe(update.real.status);
    expect(shape(update.fake.body)).toEqual(shape(update.real.body));
    const del = await both(MARKER_DELETE, (_tour, id) => ({ markerId: id }), ids);
    expect(del.real.body.errors).toBeUndefined();
    expect(shape(del.fake.body)).toEqual(shape(del.real.body));
    // Without a session.
    const real = await post(t.url, MARKER_SAVE, { input: { name: 'Hallway', tourId, frameIndex: 60 } }, null);
    const fake = await post(
      stub.origin,
      MARKER_SAVE,
      { input: { name: 'Hallway', tourId: STUB_MAIN, frameIndex: 60 } },
      null,
    );
    expect(fake.status).toBe(real.status);
    expect(fake.body.errors?.[0]?.extensions?.code).toBe(real.body.errors?.[0]?.extensions?.code);
    expect(fake.body.errors?.[0]?.message).toBe(real.body.errors?.[0]?.message);
  });
});
