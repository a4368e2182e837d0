/**
 * The owner's live viewing switch per tour (docs/live-viewing.md): tourSave sets it, the tour answers it, and saving
 * other fields keeps it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { seedProcessedTour } from './fixtures/tours.js';

const SAVE = 'mutation($input: TourSaveInput!) { tourSave(input: $input) { id title liveViewing } }';
const READ = 'query($id: ID!) { tour(tourID: $id) { id liveViewing } }';

describe.each(DB_KINDS)('live viewing switch on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('is off for a new tour, turns on and off through tourSave, and other saves keep it', async () => {
    const owner = await seedUser(t.app);
    const tour = await seedProcessedTour(t, owner);
    expect((await t.gql(READ, { id: tour.id }, owner.token)).data.tour.liveViewing).toBe(false);

    const on = await t.gql(SAVE, { input: { id: tour.id, title: 'Loft', liveViewing: true } }, owner.token);
    expect(on.data.tourSave).toEqual({ id: tour.id, title: 'Loft', liveViewing: true });
    // Saving the info without the switch keeps it on.
    await t.gql(SAVE, { input: { id: tour.id, title: 'Loft two' } }, owner.token);
    expect((await t.gql(READ, { id: tour.id }, owner.token)).data.tour.liveViewing).toBe(true);

    await t.gql(SAVE, { input: { id: tour.id, title: 'Loft two', liveViewing: false } }, owner.token);
    expect((await t.gql(READ, { id: tour.id }, owner.token)).data.tour.liveViewing).toBe(false);
  });

  it('only the owner side may switch it', async () => {
    const owner = await seedUser(t.app);
    const stranger = await seedUser(t.app);
    const tour = await seedProcessedTour(t, owner);
    const r = await t.gql(SAVE, { input: { id: tour.id, title: 'Mine now', liveViewing: true } }, stranger.token);
    expect(r.errors?.length).toBeGreaterThan(0);
    expect((await t.gql(READ, { id: tour.id }, owner.token)).data.tour.liveViewing).toBe(false);
  });
});
