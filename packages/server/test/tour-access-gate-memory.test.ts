/**
 * The gate of a protected tour asked by the player's public document (GET /query, no password): the refusal GraphQL
 * made once is kept by the node and sent again byte for byte, and it goes the moment the tour changes: made public
 * (the tour plays), a new password (a new access version), or the company's branding (the gate shows it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYER_TOUR_QUERY } from '@roomwalk/shared/player-documents';
import { publicTourRefusalsOf } from '../src/http/public-tour-cache.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { seedProcessedTour } from './fixtures/tours.js';
import { eventually } from './fixtures/live-helpers.js';

const SET_ACCESS = 'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id access } }';

describe.each(DB_KINDS)('tour access: the gate kept in memory (%s)', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  let tourId: string;

  const getTour = async () => {
    const r = await fetch(
      `${t.url}/query?${new URLSearchParams({ query: PLAYER_TOUR_QUERY, variables: JSON.stringify({ tourID: tourId }) })}`,
    );
    return { status: r.status, text: await r.text() };
  };
  const setAccess = (access: string, password?: string) =>
    t.gql(SET_ACCESS, { input: { id: tourId, access, ...(password ? { password } : {}) } }, owner.token);
  const kept = () => publicTourRefusalsOf(t.app.services)!.size;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await seedUser(t.app, { plan: 'pro' });
    const seeded = await seedProcessedTour(t, owner);
    tourId = seeded.id;
    await t.app.services.db
      .updateTable('tours')
      .set({ title: 'Quiet cottage' })
      .where('id', '=', seeded.row.id)
      .execute();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('keeps the refusal GraphQL made and sends it again as is; drops it when the tour changes', async () => {
    expect((await setAccess('PASSWORD', 'open sesame')).errors).toBeUndefined();
    const first = await getTour();
    expect(first.text).toContain('TOUR_PASSWORD_REQUIRED');
    expect(first.text).not.toContain('Quiet cottage');
    expect(kept()).toBe(1);
    const again = await getTour();
    expect(again).toEqual(first);

    // The company's colour changes: the gate shows the new one (the database's notice drops the kept refusal).
    await t.app.services.db
      .updateTable('companies')
      .set({ accent_color: '#123456' })
      .where('id', '=', owner.company.id)
      .execute();
    await eventually(async () => kept() === 0, 'the kept refusal to go');
    const branded = await getTour();
    expect(branded.text).toContain('TOUR_PASSWORD_REQUIRED');
    expect(branded.text).toContain('#123456');

    // A new password: a new access version, a new refusal; then public: the tour plays, nothing refused is kept.
    expect((await setAccess('PASSWORD', 'another one')).errors).toBeUndefined();
    expect(kept()).toBe(0);
    expect((await getTour()).text).toContain('TOUR_PASSWORD_REQUIRED');
    expect((await setAccess('PUBLIC')).errors).toBeUndefined();
    expect(kept()).toBe(0);
    const open = await getTour();
    expect(open.status).toBe(200);
    expect(open.text).toContain('Quiet cottage');
    expect(open.text).not.toContain('errors');
  });
});
