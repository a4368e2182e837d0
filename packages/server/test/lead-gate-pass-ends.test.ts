/**
 * A lead gate's pass ends (docs/access-and-privacy.md, "Lead gate"): an approved lead's wait credential mints no pass
 * after the password changes or the gate is turned off; a pass is no password grant; the agent takes a pass back
 * (tourLeadRevokePass) and it opens nothing from the next request on; a standard member decides on the leads of the
 * tours they own only, and reads only those. Visitors come from two client addresses, over real HTTP and WebSocket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYER_TOUR_ACCESS_QUERY, TOUR_UNLOCK_MUTATION } from '@roomwalk/shared/player-documents';
import { ERROR_CODES } from '@roomwalk/shared';
import { seedProcessedTour } from './fixtures/tours.js';
import { connect, LEAD_MUTATION, leadInput, wsUrl, type LiveClient } from './fixtures/live-helpers.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { CLIENT_ADDRESSES, gqlPost } from './hostile/harness.js';

const GATE_SET = 'mutation($input: TourLeadGateSetInput!) { tourLeadGateSet(input: $input) { id } }';
const MARKER_SAVE = 'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }';
const SET_ACCESS = 'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id access } }';
const GATE_LEAD = LEAD_MUTATION.replace(
  'viewingSessionRequest {',
  'gate { state access waitToken } viewingSessionRequest {',
);
const APPROVE = 'mutation($id: ID!) { tourLeadApprove(id: $id) { id gate } }';
const REVOKE = 'mutation($id: ID!) { tourLeadRevokePass(id: $id) { id gate } }';
const LEADS = '{ tourLeads { id } }';

describe.each(DB_KINDS)('lead gate: a pass ends (%s)', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  let member: SeededUser;
  const sockets: LiveClient[] = [];
  let seq = 0;

  /** A processed tour of `who` with a room gate asking for approval; its Kitchen marker id. */
  const gatedTour = async (who: SeededUser) => {
    const seeded = await seedProcessedTour(t, who, 4);
    await t.gql(MARKER_SAVE, { input: { tourId: seeded.id, name: 'Hall', frameIndex: 0 } }, who.token);
    const m = await t.gql(MARKER_SAVE, { input: { tourId: seeded.id, name: 'Kitchen', frameIndex: 80 } }, who.token);
    const markerId = m.data.markerSave.id as string;
    const g = await t.gql(GATE_SET, { input: { id: seeded.id, mode: 'ROOM', markerId, approval: true } }, who.token);
    expect(g.errors).toBeUndefined();
    return { id: seeded.id, markerId };
  };
  /** A visitor at `from` leaves the gate form (with the tour's grant, if any): the lead and its wait credential. */
  const leave = async (tourId: string, from: string, access?: string) => {
    const r = await gqlPost(
      t.url,
      GATE_LEAD,
      {
        input: leadInput(tourId, {
          leadType: 'CONTACT',
          gateFrame: 70,
          visitorId: `visitor-ends-${String(++seq).padStart(4, '0')}`,
          ...(access ? { access } : {}),
        }),
      },
      from,
    );
    expect(r.json.errors).toBeUndefined();
    const created = r.json.data.tourLeadCreate;
    expect(created.gate.state).toBe('WAITING');
    return { leadId: created.tourLead.id as string, waitToken: created.gate.waitToken as string };
  };
  /**
   * Opens the waiter socket from `from`, the credential as its first message (the player) or, from the third
   * address, in the URL as earlier players sent it; what it is told first after that.
   */
  const waitAt = async (tourId: string, leadId: string, token: string, from: string) => {
    const inUrl = from === CLIENT_ADDRESSES[2];
    const c = connect(wsUrl(t.url, { tourId, lead: leadId, ...(inUrl ? { token } : {}) }), {}, from);
    sockets.push(c);
    await c.opened;
    if (!inUrl) c.send({ type: 'roomwalk_gate_wait', token });
    return c.next((m) => m.type === 'roomwalk_gate_open' || m.type === 'roomwalk_gate_ended', 'open or ended');
  };
  /** The player's tour query with `access` from `from`: the refusal code, or whether the gate is open. */
  const asVisitor = async (tourId: string, access: string, from: string) => {
    const r = await gqlPost(t.url, PLAYER_TOUR_ACCESS_QUERY, { tourID: tourId, access }, from);
    const code = r.json.errors?.[0]?.extensions?.code as string | undefined;
    return code ?? (r.json.data.tour.leadGate?.open === true ? 'OPEN' : 'GATED');
  };

  beforeAll(async () => {
    t = await startTestApp(kind, { ICE_SERVERS: '[]' });
    owner = await seedUser(t.app, { plan: 'pro' });
    member = await seedUser(t.app, { companyId: owner.company.id });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.stop();
  });

  it('an approved lead is handed no pass after the password changes twice and the gate goes; a pass is no grant', async () => {
    const tour = await gatedTour(owner);
    const [a, b] = [CLIENT_ADDRESSES[1], CLIENT_ADDRESSES[2]];
    const { leadId, waitToken } = await leave(tour.id, a);
    expect((await t.gql(APPROVE, { id: leadId }, owner.token)).errors).toBeUndefined();
    const first = await waitAt(tour.id, leadId, waitToken, a);
    expect(first.type).toBe('roomwalk_gate_open');
    const pass = first.access as string;
    expect(await asVisitor(tour.id, pass, a)).toBe('OPEN');

    // A password tour now: the pass is no password grant, from either address.
    const pw = await t.gql(
      SET_ACCESS,
      { input: { id: tour.id, access: 'PASSWORD', password: 'first-pass' } },
      owner.token,
    );
    expect(pw.errors).toBeUndefined();
    for (const from of [a, b]) expect(await asVisitor(tour.id, pass, from)).toBe(ERROR_CODES.TOUR_PASSWORD_REQUIRED);
    const unlock = await gqlPost(t.url, TOUR_UNLOCK_MUTATION, { tourID: tour.id, password: 'first-pass' }, b);
    const grant = unlock.json.data.tourUnlock.access as string;
    // The grant and the old pass together: the tour, but the gate stays shut (the pass was for the old access).
    expect(await asVisitor(tour.id, `${grant} ${pass}`, b)).toBe('GATED');
    // The old wait credential mints nothing now, from either address.
    for (const from of [a, b])
      expect((await waitAt(tour.id, leadId, waitToken, from)).type).toBe('roomwalk_gate_ended');

    // The password changes again; then the gate is turned off: still nothing.
    await t.gql(SET_ACCESS, { input: { id: tour.id, access: 'PASSWORD', password: 'second-pass' } }, owner.token);
    expect((await waitAt(tour.id, leadId, waitToken, a)).type).toBe('roomwalk_gate_ended');
    await t.gql(GATE_SET, { input: { id: tour.id, mode: 'OFF', approval: false } }, owner.token);
    expect((await waitAt(tour.id, leadId, waitToken, b)).type).toBe('roomwalk_gate_ended');
    // Public again with the gate back on: the old pass and credential still open nothing.
    await t.gql(SET_ACCESS, { input: { id: tour.id, access: 'PUBLIC' } }, owner.token);
    await t.gql(
      GATE_SET,
      { input: { id: tour.id, mode: 'ROOM', markerId: tour.markerId, approval: true } },
      owner.token,
    );
    expect((await waitAt(tour.id, leadId, waitToken, a)).type).toBe('roomwalk_gate_ended');
    expect(await asVisitor(tour.id, pass, a)).toBe('GATED');
  });

  it('the agent revokes a pass: it opens nothing from the next request on, and the waiter gets nothing', async () => {
    const tour = await gatedTour(owner);
    const { leadId, waitToken } = await leave(tour.id, CLIENT_ADDRESSES[1]);
    await t.gql(APPROVE, { id: leadId }, owner.token);
    const pass = (await waitAt(tour.id, leadId, waitToken, CLIENT_ADDRESSES[1])).access as string;
    expect(await asVisitor(tour.id, pass, CLIENT_ADDRESSES[1])).toBe('OPEN');
    const r = await t.gql(REVOKE, { id: leadId }, owner.token);
    expect(r.errors).toBeUndefined();
    expect(r.data.tourLeadRevokePass.gate).toBe('REVOKED');
    for (const from of [CLIENT_ADDRESSES[1], CLIENT_ADDRESSES[2]])
      expect(await asVisitor(tour.id, pass, from)).toBe('GATED');
    expect((await waitAt(tour.id, leadId, waitToken, CLIENT_ADDRESSES[2])).type).toBe('roomwalk_gate_ended');
    // Approving a revoked lead again does not give it back (only a waiting lead is approved).
    await t.gql(APPROVE, { id: leadId }, owner.token);
    expect(await asVisitor(tour.id, pass, CLIENT_ADDRESSES[1])).toBe('GATED');
  });

  it("a standard member neither reads, approves nor revokes the leads of a colleague's tour; an admin does", async () => {
    const ownersTour = await gatedTour(owner);
    const membersTour = await gatedTour(member);
    const theirs = await leave(ownersTour.id, CLIENT_ADDRESSES[1]);
    const mine = await leave(membersTour.id, CLIENT_ADDRESSES[2]);
    const approve = await t.gql(APPROVE, { id: theirs.leadId }, member.token);
    expect(approve.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);
    const revoke = await t.gql(REVOKE, { id: theirs.leadId }, member.token);
    expect(revoke.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);
    const node = await t.gql('query($id: ID!) { node(id: $id) { id } }', { id: theirs.leadId }, member.token);
    expect(node.data.node).toBeNull();
    const listed = (await t.gql(LEADS, {}, member.token)).data.tourLeads.map((l: { id: string }) => l.id);
    expect(listed).toContain(mine.leadId);
    expect(listed).not.toContain(theirs.leadId);
    const rows = await t.app.services.db
      .selectFrom('tour_leads')
      .select('gate')
      .where('id', 'in', [theirs.leadId.replace(/^lead_/, '')])
      .execute();
    expect(rows.map((r) => r.gate)).toEqual(['WAITING']);
    // The member decides on their own tour's lead; the admin sees and decides on every lead of the company.
    expect((await t.gql(APPROVE, { id: mine.leadId }, member.token)).errors).toBeUndefined();
    const all = (await t.gql(LEADS, {}, owner.token)).data.tourLeads.map((l: { id: string }) => l.id);
    expect(all).toEqual(expect.arrayContaining([mine.leadId, theirs.leadId]));
    expect((await t.gql(APPROVE, { id: theirs.leadId }, owner.token)).errors).toBeUndefined();
  });
});
