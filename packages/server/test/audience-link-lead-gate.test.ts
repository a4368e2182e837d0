/**
 * A lead gate per audience link: a link's own gate replaces the tour's for its visitors (none, a room of the link's,
 * other approval), a link without one shows the tour's, a gate room the link does not show is refused at creation, and
 * the frame a link's visitor stopped at is kept in the tour's frames (the agent's "Stopped at" names the right room).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYER_TOUR_LINK_QUERY, PLAYER_TOUR_QUERY } from '@roomwalk/shared/player-documents';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { seedProcessedTour } from './fixtures/tours.js';
import { LEAD_MUTATION, leadInput } from './fixtures/live-helpers.js';

const CREATE =
  'mutation($input: AudienceLinkCreateInput!) { audienceLinkCreate(input: $input) { id token leadGate { mode markerId seconds approval } } }';
const GATE_SET = 'mutation($input: TourLeadGateSetInput!) { tourLeadGateSet(input: $input) { id } }';
const MARKER_SAVE = 'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }';
const GATE_LEAD = LEAD_MUTATION.replace(
  'viewingSessionRequest {',
  'gate { state access waitToken } viewingSessionRequest {',
);
const LEADS = 'query { tourLeads { id name gate stoppedAt } }';

interface PlayerTour {
  clips: Array<{ index: number; highURI: string }>;
  markers: Array<{ name: string; frameIndex: number }>;
  leadGate: { roomName: string | null; seconds: number | null; approval: boolean; open: boolean } | null;
}

describe.each(DB_KINDS)('audience link lead gate (%s)', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  let tourId: string;
  let rowId: string;
  const m: Record<string, string> = {};

  const create = (input: Record<string, unknown>) => t.gql(CREATE, { input: { tourId, ...input } }, owner.token);
  const viaLink = async (link: string, access?: string) => {
    const r = await fetch(
      `${t.url}/query?${new URLSearchParams({ query: PLAYER_TOUR_LINK_QUERY, variables: JSON.stringify({ tourID: tourId, link, ...(access ? { access } : {}) }) })}`,
    );
    const body = (await r.json()) as { data?: { tour: PlayerTour }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data!.tour;
  };
  const plain = async () =>
    (
      (await (
        await fetch(
          `${t.url}/query?${new URLSearchParams({ query: PLAYER_TOUR_QUERY, variables: JSON.stringify({ tourID: tourId }) })}`,
        )
      ).json()) as { data: { tour: PlayerTour } }
    ).data.tour;
  const links = () => t.app.services.db.selectFrom('audience_links').selectAll().where('tour_id', '=', rowId).execute();

  beforeAll(async () => {
    t = await startTestApp(kind, { ICE_SERVERS: '[]', RATE_LIMIT_DISABLED: true });
    owner = await seedUser(t.app, { plan: 'pro' });
    // Seven clips of 36 frames: 0–35, 36–71, 72–107, 108–143, 144–179, 180–215, 216–251.
    const seeded = await seedProcessedTour(t, owner, 7);
    tourId = seeded.id;
    rowId = seeded.row.id;
    for (const [name, frameIndex] of [
      ['Hall', 10],
      ['Study', 40],
      ['Bedroom', 80],
      ['Kitchen', 150],
      ['Garden', 230],
    ] as const)
      m[name] = (await t.gql(MARKER_SAVE, { input: { tourId, name, frameIndex } }, owner.token)).data.markerSave.id;
    // The tour's own gate: before the Bedroom, waiting for approval (its visitors get clips 0 and 1).
    const set = await t.gql(
      GATE_SET,
      { input: { id: tourId, mode: 'ROOM', markerId: m.Bedroom, approval: true } },
      owner.token,
    );
    expect(set.errors).toBeUndefined();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("refuses a link's gate before a room the link does not show, or before its first room, and makes no link", async () => {
    const hidden = await create({
      label: 'Buyers',
      hiddenMarkerIds: [m.Study],
      leadGate: { mode: 'ROOM', markerId: m.Study, approval: false },
    });
    expect(hidden.errors?.[0]?.message).toBe(
      'This link does not show that room, so the form cannot come before it. Choose a room the link shows.',
    );
    // Hiding the Hall takes clips 0 and 1 (the Hall's frames 10–39): nothing the link shows plays before the Study.
    const early = await create({
      label: 'Buyers',
      hiddenMarkerIds: [m.Hall],
      leadGate: { mode: 'ROOM', markerId: m.Study, approval: false },
    });
    expect(early.errors?.[0]?.message).toBe(
      'The form cannot come before the first room this link shows. Choose a later room.',
    );
    const first = await create({ label: 'Buyers', leadGate: { mode: 'ROOM', markerId: m.Hall, approval: false } });
    expect(first.errors?.[0]?.message).toBe('The form cannot come before the first room. Choose a later room.');
    const seconds = await create({ label: 'Buyers', leadGate: { mode: 'SECONDS', seconds: 1, approval: false } });
    expect(seconds.errors?.[0]?.message).toBe('Choose between 5 and 3600 seconds.');
    expect(await links()).toEqual([]);
  });

  it("a link's own gate replaces the tour's for its visitors; a link without one shows the tour's", async () => {
    // Hides the Study (clips 1 and 2 go); the form before the Garden, going on at once.
    const own = await create({
      label: 'Open day',
      hiddenMarkerIds: [m.Study],
      leadGate: { mode: 'ROOM', markerId: m.Garden, approval: false },
    });
    expect(own.errors).toBeUndefined();
    expect(own.data.audienceLinkCreate.leadGate).toEqual({
      mode: 'ROOM',
      markerId: m.Garden,
      seconds: null,
      approval: false,
    });
    const none = await create({ label: 'Seller', leadGate: { mode: 'OFF', approval: true } });
    const tours = await create({ label: 'MLS' });
    expect(tours.data.audienceLinkCreate.leadGate).toBeNull();

    // The tour's own visitors: up to the Bedroom.
    expect((await plain()).clips.map((c) => c.index)).toEqual([0, 1]);
    // Through the open-day link: the link's clips 0, 3, 4, 5 (renumbered), held back from the Garden's clip on.
    const seen = await viaLink(own.data.audienceLinkCreate.token);
    expect(seen.clips.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    expect(seen.leadGate).toEqual({ roomName: 'Garden', seconds: null, approval: false, open: false });
    // The seller's link asks for nothing: every clip.
    const seller = await viaLink(none.data.audienceLinkCreate.token);
    expect(seller.clips).toHaveLength(7);
    expect(seller.leadGate).toBeNull();
    // The MLS link shows the tour's gate as the tour has it.
    const mls = await viaLink(tours.data.audienceLinkCreate.token);
    expect(mls.clips.map((c) => c.index)).toEqual([0, 1]);
    expect(mls.leadGate).toEqual({ roomName: 'Bedroom', seconds: null, approval: true, open: false });
  });

  it("a lead at a link's gate follows the link's choice, and its stopped-at frame is the tour's", async () => {
    const link = (await links()).find((l) => l.label === 'Open day')!;
    // The visitor stopped at the last frame the link gave (its frame 143, the tour's 215: in the Kitchen).
    const r = await t.gql(GATE_LEAD, {
      input: leadInput(tourId, { leadType: 'CONTACT', name: 'Lina', gateFrame: 143, link: link.token }),
    });
    expect(r.errors).toBeUndefined();
    const { gate, tourLead } = r.data.tourLeadCreate as {
      gate: { state: string; access: string };
      tourLead: { id: string };
    };
    // The link does not ask for approval (the tour does): the visitor goes on at once.
    expect(gate.state).toBe('OPEN');
    const row = await t.app.services.db
      .selectFrom('tour_leads')
      .select(['gate', 'gate_frame'])
      .where('email', '=', 'vera@example.com')
      .where('name', '=', 'Lina')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ gate: 'OPEN', gate_frame: 215 });
    const leads = (await t.gql(LEADS, {}, owner.token)).data.tourLeads as Array<{
      id: string;
      stoppedAt: string | null;
    }>;
    expect(leads.find((l) => l.id === tourLead.id)?.stoppedAt).toBe('Kitchen');
    // With the pass, the link's whole view.
    const through = await viaLink(link.token, gate.access);
    expect(through.clips.map((c) => c.index)).toEqual([0, 1, 2, 3, 4]);
    expect(through.leadGate?.open).toBe(true);
  });

  it("a lead through a link that sets no gate meets the tour's (approval asked); a dead link is refused", async () => {
    const mls = (await links()).find((l) => l.label === 'MLS')!;
    const r = await t.gql(GATE_LEAD, {
      input: leadInput(tourId, { leadType: 'CONTACT', name: 'Mia', gateFrame: 60, link: mls.token }),
    });
    expect(r.errors).toBeUndefined();
    expect(r.data.tourLeadCreate.gate.state).toBe('WAITING');
    const seller = (await links()).find((l) => l.label === 'Seller')!;
    const off = await t.gql(GATE_LEAD, {
      input: leadInput(tourId, { leadType: 'CONTACT', name: 'Noa', gateFrame: 60, link: seller.token }),
    });
    expect(off.errors?.[0]?.message).toBe('This tour does not ask for details.');
    const dead = await t.gql(GATE_LEAD, {
      input: leadInput(tourId, { leadType: 'CONTACT', name: 'Ola', gateFrame: 60, link: 'x'.repeat(32) }),
    });
    expect(dead.errors?.[0]?.extensions?.code).toBe('AUDIENCE_LINK_UNAVAILABLE');
    const names = (
      await t.app.services.db.selectFrom('tour_leads').select('name').where('tour_id', '=', rowId).execute()
    ).map((l) => l.name);
    expect(names.sort()).toEqual(['Lina', 'Mia']);
  });
});
