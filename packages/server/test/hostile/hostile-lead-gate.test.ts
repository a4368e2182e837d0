/**
 * The lead gate attacked from outside (docs/access-and-privacy.md, "Lead gate"): forged, replayed and malformed
 * approval links, one tour's pass or wait credential on another tour, a waiting visitor who speaks on its socket
 * (spoofing the approval), absurd gate frames, the gate of a password tour without the password, and a flood of
 * gate leads from several addresses, a pass from an audience link's own form (no approval) on the tour's approval gate.
 * Every refusal changes no lead and hands out no pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYER_TOUR_ACCESS_QUERY, PLAYER_TOUR_LINK_QUERY } from '@roomwalk/shared/player-documents';
import { seedProcessedTour } from '../fixtures/tours.js';
import { connect, LEAD_MUTATION, leadInput, wsUrl, type LiveClient } from '../fixtures/live-helpers.js';
import { seedUser, type SeededUser } from '../helpers/seed.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/test-app.js';
import { CLOSE_CODES } from '../../src/http/tour-viewer-ws.js';
import { CLIENT_ADDRESSES, gqlPost, post } from './harness.js';

const GATE_SET = 'mutation($input: TourLeadGateSetInput!) { tourLeadGateSet(input: $input) { id } }';
const MARKER_SAVE = 'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }';
const SET_ACCESS = 'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id access } }';
const GATE_LEAD = LEAD_MUTATION.replace(
  'viewingSessionRequest {',
  'gate { state access waitToken } viewingSessionRequest {',
);
const APPROVE = 'mutation($id: ID!) { tourLeadApprove(id: $id) { id gate } }';
const LINK_CREATE = 'mutation($input: AudienceLinkCreateInput!) { audienceLinkCreate(input: $input) { id token } }';

describe.each(DB_KINDS)('hostile: lead gate (%s)', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  let stranger: SeededUser;
  /** Two gated tours of the owner (approval asked), and one of another company. */
  const tours: Array<{ id: string; rowId: string }> = [];
  const sockets: LiveClient[] = [];
  let visitorSeq = 0;

  const gateLead = async (tourId: string, from: string, over: Record<string, unknown> = {}) =>
    gqlPost(
      t.url,
      GATE_LEAD,
      {
        input: leadInput(tourId, {
          leadType: 'CONTACT',
          gateFrame: 70,
          visitorId: `visitor-gate-${String(++visitorSeq).padStart(4, '0')}`,
          ...over,
        }),
      },
      from,
    );
  const leadRows = async (rowId: string) =>
    t.app.services.db
      .selectFrom('tour_leads')
      .select(['id', 'gate', 'gate_decided_at'])
      .where('tour_id', '=', rowId)
      .orderBy('id')
      .execute();
  const clipsWith = async (tourId: string, access: string) =>
    ((await t.gql(PLAYER_TOUR_ACCESS_QUERY, { tourID: tourId, access })).data?.tour?.clips ?? []).length as number;
  /** The clips and whether the gate shows open, through `link` (or the tour's own link) with `access`. */
  const seen = async (tourId: string, access: string, link?: string) => {
    const r = link
      ? await t.gql(PLAYER_TOUR_LINK_QUERY, { tourID: tourId, access, link })
      : await t.gql(PLAYER_TOUR_ACCESS_QUERY, { tourID: tourId, access });
    expect(r.errors).toBeUndefined();
    return { clips: r.data.tour.clips.length as number, open: r.data.tour.leadGate?.open as boolean };
  };
  const wait = (tourId: string, lead: string, token: string) => {
    const c = connect(wsUrl(t.url, { tourId, lead, token }));
    sockets.push(c);
    return c;
  };
  const approvePost = (body: string, contentType = 'application/x-www-form-urlencoded') =>
    post(`${t.url}/lead-gate/approve`, body, {
      from: CLIENT_ADDRESSES[2],
      headers: { 'content-type': contentType, accept: 'text/html' },
    });

  beforeAll(async () => {
    // Rate limits on: the flood below must meet them.
    t = await startTestApp(kind, { ICE_SERVERS: '[]' });
    owner = await seedUser(t.app, { plan: 'pro' });
    stranger = await seedUser(t.app, { plan: 'pro' });
    for (const who of [owner, owner, stranger]) {
      const seeded = await seedProcessedTour(t, who, 4); // clips of 36 frames
      for (const [name, frameIndex] of [
        ['Hall', 0],
        ['Kitchen', 80],
      ] as const) {
        const m = await t.gql(MARKER_SAVE, { input: { tourId: seeded.id, name, frameIndex } }, who.token);
        if (name === 'Kitchen') {
          const g = await t.gql(
            GATE_SET,
            { input: { id: seeded.id, mode: 'ROOM', markerId: m.data.markerSave.id, approval: true } },
            who.token,
          );
          expect(g.errors).toBeUndefined();
        }
      }
      tours.push({ id: seeded.id, rowId: seeded.row.id });
    }
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.stop();
  });

  it('forged, malformed and replayed approval links approve nobody, say so plainly, and leak nothing', async () => {
    const [a] = tours;
    const made = await gateLead(a!.id, CLIENT_ADDRESSES[0], { name: 'Fay' });
    expect(made.json.errors).toBeUndefined();
    const leadId = made.json.data.tourLeadCreate.tourLead.id as string;
    const bodies = [
      'token=',
      `token=${'A'.repeat(43)}`,
      `token=${'A'.repeat(5000)}`,
      `token=${encodeURIComponent("' OR 1=1 --")}`,
      'token=a&token=b',
      `token=${encodeURIComponent(leadId)}`,
      `lead=${encodeURIComponent(leadId)}`,
    ];
    for (const body of bodies) {
      const r = await approvePost(body);
      expect([410, 413]).toContain(r.status);
      expect(r.text).not.toContain('Fay');
      expect(r.text).not.toMatch(/at .*\.(ts|js):\d+/);
    }
    // JSON instead of the form, GET with a forged token: nothing.
    const json = await approvePost(JSON.stringify({ token: 'x' }), 'application/json');
    expect(json.status).toBe(410);
    const forgedGet = await fetch(`${t.url}/lead-gate/approve?token=${'B'.repeat(43)}`);
    expect(forgedGet.status).toBe(410);
    expect(await forgedGet.text()).not.toContain('Fay');
    expect((await leadRows(a!.rowId)).map((l) => l.gate)).toEqual(['WAITING']);
  });

  it("one tour's pass or wait credential opens no other tour; another company approves nothing", async () => {
    const [a, b, theirs] = tours;
    // An OPEN lead (no approval) on tour A gives a pass for A only.
    await t.gql(
      GATE_SET,
      { input: { id: a!.id, mode: 'ROOM', markerId: await kitchenOf(a!.id), approval: false } },
      owner.token,
    );
    try {
      const open = await gateLead(a!.id, CLIENT_ADDRESSES[1], { name: 'Pia' });
      const pass = open.json.data.tourLeadCreate.gate.access as string;
      expect(await clipsWith(a!.id, pass)).toBe(4);
      expect(await clipsWith(b!.id, pass)).toBe(2);
      expect(await clipsWith(theirs!.id, pass)).toBe(2);
    } finally {
      await t.gql(
        GATE_SET,
        { input: { id: a!.id, mode: 'ROOM', markerId: await kitchenOf(a!.id), approval: true } },
        owner.token,
      );
    }
    // A waiting lead on B: its credential on tour A's socket, or with another lead, is refused.
    const waiting = await gateLead(b!.id, CLIENT_ADDRESSES[1], { name: 'Wes' });
    const { tourLead, gate } = waiting.json.data.tourLeadCreate;
    expect((await wait(a!.id, tourLead.id, gate.waitToken).closed).code).toBe(CLOSE_CODES.unauthorised);
    // The stranger (another company), anonymous callers and a made-up id cannot approve it.
    for (const [id, token, code] of [
      [tourLead.id, stranger.token, 'NOT_FOUND'],
      [tourLead.id, undefined, 'UNAUTHENTICATED'],
      ['lead_00000000-0000-4000-8000-000000000000', owner.token, 'NOT_FOUND'],
    ] as const) {
      const r = await t.gql(APPROVE, { id }, token);
      expect(r.errors?.[0]?.extensions?.code).toBe(code);
    }
    expect((await leadRows(b!.rowId)).find((l) => `lead_${l.id}` === tourLead.id)?.gate).toBe('WAITING');
  });

  it('a waiting visitor who sends anything on its socket (a forged approval, a pass request) stays waiting', async () => {
    const [, b] = tours;
    const mine = (await gateLead(b!.id, CLIENT_ADDRESSES[2], { name: 'Sly' })).json.data.tourLeadCreate;
    const other = (await gateLead(b!.id, CLIENT_ADDRESSES[2], { name: 'Ona' })).json.data.tourLeadCreate;
    const spoofer = wait(b!.id, mine.tourLead.id, mine.gate.waitToken);
    const bystander = wait(b!.id, other.tourLead.id, other.gate.waitToken);
    await spoofer.next((m) => m.type === 'roomwalk_gate_waiting', 'waiting');
    await bystander.next((m) => m.type === 'roomwalk_gate_waiting', 'waiting');
    for (const m of [
      { type: 'roomwalk_gate_open', access: 'forged' },
      { type: 'roomwalk_gate_approve', lead: mine.tourLead.id },
      { type: 'leadGateOpened', leadId: mine.tourLead.id, tourId: b!.id },
      'not json at all',
      { type: 'roomwalk_gate_open', leadId: other.tourLead.id },
    ])
      spoofer.send(m);
    // The approval of the bystander is the synchronisation point: its pass comes, the spoofer's does not.
    expect((await t.gql(APPROVE, { id: other.tourLead.id }, owner.token)).data.tourLeadApprove.gate).toBe('APPROVED');
    const pass = await bystander.next((m) => m.type === 'roomwalk_gate_open', "the bystander's pass");
    expect(await clipsWith(b!.id, pass.access as string)).toBe(4);
    expect(spoofer.messages.some((m) => m.type === 'roomwalk_gate_open')).toBe(false);
    const rows = await leadRows(b!.rowId);
    expect(rows.find((l) => `lead_${l.id}` === mine.tourLead.id)?.gate).toBe('WAITING');
  });

  it("a pass from a link's own form without approval does not open the tour's approval gate; each gate takes its own", async () => {
    const [, b] = tours;
    const kitchen = await kitchenOf(b!.id);
    const made = async (input: Record<string, unknown>) => {
      const r = await t.gql(LINK_CREATE, { input: { tourId: b!.id, ...input } }, owner.token);
      expect(r.errors).toBeUndefined();
      return r.data.audienceLinkCreate.token as string;
    };
    // The open-day link asks for the form before the Kitchen too, but lets the visitor go on at once.
    const openDay = await made({ label: 'Open day', leadGate: { mode: 'ROOM', markerId: kitchen, approval: false } });
    const mls = await made({ label: 'MLS' });
    const r = await gateLead(b!.id, CLIENT_ADDRESSES[2], { name: 'Lou', link: openDay });
    expect(r.json.errors).toBeUndefined();
    const { gate } = r.json.data.tourLeadCreate;
    expect(gate.state).toBe('OPEN');
    // Through its own link the pass opens the rest; on the tour's own link (approval asked) or a link that shows the
    // tour's gate it is refused: the clips stop before the Kitchen and the form is still asked.
    expect(await seen(b!.id, gate.access, openDay)).toEqual({ clips: 4, open: true });
    expect(await seen(b!.id, gate.access)).toEqual({ clips: 2, open: false });
    expect(await seen(b!.id, gate.access, mls)).toEqual({ clips: 2, open: false });

    // The tour's gate, approved by the agent: its pass opens the tour (and a link showing the tour's gate), not the
    // open-day link's own gate.
    const waiting = await gateLead(b!.id, CLIENT_ADDRESSES[2], { name: 'Ada' });
    const { tourLead, gate: w } = waiting.json.data.tourLeadCreate;
    expect(w.state).toBe('WAITING');
    const socket = wait(b!.id, tourLead.id, w.waitToken);
    await socket.next((m) => m.type === 'roomwalk_gate_waiting', 'waiting');
    expect((await t.gql(APPROVE, { id: tourLead.id }, owner.token)).errors).toBeUndefined();
    const pass = (await socket.next((m) => m.type === 'roomwalk_gate_open', 'the pass')).access as string;
    expect(await seen(b!.id, pass)).toEqual({ clips: 4, open: true });
    expect(await seen(b!.id, pass, mls)).toEqual({ clips: 4, open: true });
    expect(await seen(b!.id, pass, openDay)).toEqual({ clips: 2, open: false });
  });

  it('absurd gate frames are refused in plain words and leave no lead', async () => {
    const [a] = tours;
    const before = (await leadRows(a!.rowId)).length;
    for (const gateFrame of [-1, 1.5, 1e12, '70', Number.MAX_SAFE_INTEGER + 2]) {
      const r = await gateLead(a!.id, CLIENT_ADDRESSES[0], { gateFrame });
      expect(r.json.data?.tourLeadCreate ?? null).toBeNull();
      expect(r.json.errors?.[0]?.extensions?.code).toMatch(/BAD_USER_INPUT|GRAPHQL_VALIDATION_FAILED/);
      expect(r.text).not.toContain('stack');
    }
    expect((await leadRows(a!.rowId)).length).toBe(before);
  });

  it('the gate of a password tour takes no lead without the password, and hands out no pass', async () => {
    const [, , theirs] = tours;
    const set = await t.gql(
      SET_ACCESS,
      { input: { id: theirs!.id, access: 'PASSWORD', password: 'cellar door' } },
      stranger.token,
    );
    expect(set.errors).toBeUndefined();
    try {
      const before = (await leadRows(theirs!.rowId)).length;
      for (const access of [undefined, 'forged', `9999999999.1.${'A'.repeat(43)}`]) {
        const r = await gateLead(theirs!.id, CLIENT_ADDRESSES[1], access ? { access } : {});
        expect(r.json.data?.tourLeadCreate ?? null).toBeNull();
        expect(r.json.errors?.[0]?.extensions?.code).toMatch(/TOUR_PASSWORD_REQUIRED|TOUR_PASSWORD_WRONG/);
        expect(r.text).not.toContain('Kitchen');
      }
      expect((await leadRows(theirs!.rowId)).length).toBe(before);
    } finally {
      await t.gql(SET_ACCESS, { input: { id: theirs!.id, access: 'PUBLIC' } }, stranger.token);
    }
  });

  it('a flood of gate leads from three addresses stops at the limit per address, with a clear answer', async () => {
    const [, b] = tours;
    const before = (await leadRows(b!.rowId)).length;
    const refusedPerAddress = new Map<string, number>();
    const acceptedPerAddress = new Map<string, number>();
    for (const from of CLIENT_ADDRESSES)
      for (let i = 0; i < 14; i++) {
        const r = await gateLead(b!.id, from, { name: `Flood${i}` });
        const code = r.json.errors?.[0]?.extensions?.code;
        if (code === 'RATE_LIMITED') refusedPerAddress.set(from, (refusedPerAddress.get(from) ?? 0) + 1);
        else if (!r.json.errors) acceptedPerAddress.set(from, (acceptedPerAddress.get(from) ?? 0) + 1);
        else throw new Error(`unexpected answer: ${r.text.slice(0, 300)}`);
      }
    // Ten leads per address in ten minutes (RATE_LIMITS.tourLeadCreate), counting the earlier tests' leads.
    for (const from of CLIENT_ADDRESSES) {
      expect(acceptedPerAddress.get(from) ?? 0).toBeLessThanOrEqual(10);
      expect(refusedPerAddress.get(from) ?? 0).toBeGreaterThanOrEqual(4);
    }
    const added = (await leadRows(b!.rowId)).length - before;
    expect(added).toBe([...acceptedPerAddress.values()].reduce((s, n) => s + n, 0));
    expect(added).toBeLessThanOrEqual(30);
  });

  async function kitchenOf(tourId: string): Promise<string> {
    const r = await t.gql('query($id: ID!) { tour(tourID: $id) { markers { id name } } }', { id: tourId }, owner.token);
    return (r.data.tour.markers as Array<{ id: string; name: string }>).find((m) => m.name === 'Kitchen')!.id;
  }
});
