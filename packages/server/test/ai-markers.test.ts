import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';
import type { Client } from 'graphql-ws';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { DETECTOR_INPUT, detectObjects, loadDetector } from '../src/services/ai/object-detector.js';
import { analyseRooms, roomFromObjects } from '../src/services/ai/rooms.js';
import { scoreBoundaries } from './support/ai-videos.js';
import { aiMarkersJob } from '../src/services/ai/run-ai-markers.js';
import { expectNoWorkDirLeft, processedTour, roomsVideo } from './ai-fixtures.js';

const GEN = 'mutation($id: ID!) { tourGenerateAIMarkers(tourId: $id) { id name frameIndex } }';
const SUB =
  'subscription($id: ID!) { tourGenerateAIMarkersUpdated(tourId: $id) { tourId action progressPercentage marker { id name frameIndex isFastTravel } } }';

describe('room understanding', () => {
  it('loads the COCO detector from the shipped model files and finds people in the sample photo', async () => {
    const { backend } = await loadDetector();
    expect(['wasm', 'cpu']).toContain(backend);
    // A photo of several people (test/assets, from @vladmandic/human's assets).
    const sample = fileURLToPath(new URL('./assets/samples.jpg', import.meta.url));
    const rgb = await sharp(sample)
      .resize(DETECTOR_INPUT, DETECTOR_INPUT, { fit: 'fill' })
      .removeAlpha()
      .raw()
      .toBuffer();
    const found = await detectObjects(rgb, 0.3);
    expect(found.filter((d) => d.label === 'person').length).toBeGreaterThan(2);
  });

  it('maps objects to predefined room names', () => {
    expect(roomFromObjects([{ label: 'bed', score: 0.8 }])?.name).toBe('Bedroom');
    expect(
      roomFromObjects([
        { label: 'sink', score: 0.7 },
        { label: 'toilet', score: 0.6 },
      ])?.name,
    ).toBe('Bathroom');
    expect(
      roomFromObjects([
        { label: 'sink', score: 0.7 },
        { label: 'oven', score: 0.6 },
      ])?.name,
    ).toBe('Kitchen');
    expect(
      roomFromObjects([
        { label: 'couch', score: 0.9 },
        { label: 'tv', score: 0.5 },
      ])?.name,
    ).toBe('Living Room');
    expect(roomFromObjects([{ label: 'person', score: 0.9 }])).toBeNull();
  });

  it('finds every room boundary of a generated four-room video within half a second', async () => {
    const { file, boundaries } = await roomsVideo();
    const rooms = await analyseRooms(file, { framesPerRoom: 1 });
    const s = scoreBoundaries(
      boundaries,
      rooms.slice(1).map((r) => r.start),
    );
    expect(s).toMatchObject({ hits: boundaries.length, misses: 0, falseAlarms: 0 });
    expect(rooms[0]).toMatchObject({ start: 0, name: 'Entrance' });
  });
});

describe.each(DB_KINDS)('tourGenerateAIMarkers on %s', (kind) => {
  let t: TestApp;
  let admin: SeededUser;
  let owner: SeededUser;
  beforeAll(async () => {
    t = await startTestApp(kind, { ROLE: 'api' });
    owner = await seedUser(t.app, { plan: 'pro' });
    admin = await seedUser(t.app, { plan: 'pro', superadmin: true });
  });
  afterAll(async () => {
    await t?.stop();
  });
  const runOf = (tourId: string) =>
    t.app.services.db.selectFrom('ai_marker_runs').selectAll().where('tour_id', '=', tourId).executeTakeFirstOrThrow();

  it('is for super admins only', async () => {
    const tourId = await processedTour(t.app, owner);
    const r = await t.gql(GEN, { id: `tour_${tourId}` }, owner.token);
    expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.FORBIDDEN);
  });

  it('adds a marker per room with ordered progress, removes AI markers it disagrees with, then refuses a second generation', async () => {
    const tourId = await processedTour(t.app, owner);
    const other = await processedTour(t.app, owner);
    await t.app.services.db
      .insertInto('markers')
      .values({ tour_id: tourId, name: 'Pool', frame_index: 5, source: 'USER' })
      .execute();
    const client = t.wsClient(admin.token);
    const sub = untilFinal(client, tourId);
    await sub.ready;
    const r = await t.gql(GEN, { id: `tour_${tourId}` }, admin.token);
    expect(r.errors).toBeUndefined();
    expect(r.data.tourGenerateAIMarkers.map((m: { name: string }) => m.name)).toEqual(['Pool']);
    // One generation per user at a time.
    const busy = await t.gql(GEN, { id: `tour_${other}` }, admin.token);
    expect(busy.errors?.[0]).toMatchObject({
      message: ERROR_TEXTS.aiAlreadyGenerating,
      extensions: { code: ERROR_CODES.AI_ALREADY_GENERATING },
    });
    // An earlier, interrupted attempt left an AI marker the analysis will not agree with.
    await t.app.services.db
      .insertInto('markers')
      .values({ tour_id: tourId, name: 'Garage', frame_index: 200, source: 'AI' })
      .execute();
    const run = await runOf(tourId);
    await expectNoWorkDirLeft('roomwalk-ai-markers-', () => aiMarkersJob(t.app.services, run.id));

    const markers = await t.app.services.db
      .selectFrom('markers')
      .selectAll()
      .where('tour_id', '=', tourId)
      .orderBy('frame_index')
      .execute();
    // Rooms start at 0, 4, 9 and 12 s (15 fps); the owner's marker at frame 5 keeps the first spot.
    expect(markers.map((m) => [m.source, m.frame_index])).toEqual([
      ['USER', 5],
      ['AI', 60],
      ['AI', 135],
      ['AI', 180],
    ]);
    const events = await sub.done;
    const actions = events.map((e) => e.action);
    expect(actions.filter((a) => a === 'REMOVE')).toHaveLength(1);
    expect(actions.filter((a) => a === 'ADD')).toHaveLength(3);
    expect(actions.indexOf('REMOVE')).toBeLessThan(actions.indexOf('ADD'));
    const percents = events.map((e) => e.progressPercentage);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
    expect(percents.at(-1)).toBe(100);
    expect(events.find((e) => e.action === 'REMOVE')?.marker?.name).toBe('Garage');

    const again = await t.gql(GEN, { id: `tour_${tourId}` }, admin.token);
    expect(again.errors?.[0]).toMatchObject({
      message: ERROR_TEXTS.aiAlreadyCreated,
      extensions: { code: ERROR_CODES.AI_ALREADY_CREATED },
    });
    // The user is free again for another tour.
    expect((await t.gql(GEN, { id: `tour_${other}` }, admin.token)).errors).toBeUndefined();
  });

  it('a failing analysis ends the run FAILED with a final event and frees the user', async () => {
    const admin2 = await seedUser(t.app, { plan: 'pro', superadmin: true });
    const tourId = await processedTour(t.app, owner);
    expect((await t.gql(GEN, { id: `tour_${tourId}` }, admin2.token)).errors).toBeUndefined();
    const run = await runOf(tourId);
    await aiMarkersJob(t.app.services, run.id, {
      analyse: async () => {
        throw new Error('decoder exploded');
      },
    });
    expect((await runOf(tourId)).status).toBe('FAILED');
    const tour2 = await processedTour(t.app, owner);
    expect((await t.gql(GEN, { id: `tour_${tour2}` }, admin2.token)).errors).toBeUndefined();
  });
});

type Ev = { action: string | null; progressPercentage: number; marker: { name: string; frameIndex: number } | null };
/** Subscribes and collects events until the final one (progress 100). */
function untilFinal(client: Client, tourId: string): { ready: Promise<void>; done: Promise<Ev[]> } {
  const events: Ev[] = [];
  let ready!: () => void;
  const readyP = new Promise<void>((r) => (ready = r));
  client.on('connected', () => ready());
  const done = new Promise<Ev[]>((resolve, reject) => {
    const stop = client.subscribe<{ tourGenerateAIMarkersUpdated: Ev }>(
      { query: SUB, variables: { id: `tour_${tourId}` } },
      {
        next: (v) => {
          if (v.errors) return reject(new Error(JSON.stringify(v.errors)));
          const e = v.data!.tourGenerateAIMarkersUpdated;
          events.push(e);
          if (e.progressPercentage === 100) {
            stop();
            resolve(events);
          }
        },
        error: (e) => reject(e instanceof Error ? e : new Error(JSON.stringify(e))),
        complete: () => resolve(events),
      },
    );
  });
  return { ready: readyP, done };
}
