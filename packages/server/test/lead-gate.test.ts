/**
 * Lead-gated rooms: the owner's choice, the server's enforcement of a room gate (the answer lists the clips up to the
 * gate's room only and the files past it are served signed only, to pass holders), the lead at the gate, the agent's
 * approval from the console and from the one-time mailed link (used once, expiring), and the pass pushed down the live
 * socket the visitor waits on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYER_TOUR_ACCESS_QUERY, PLAYER_TOUR_QUERY } from '@roomwalk/shared/player-documents';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { seedProcessedTour } from './fixtures/tours.js';
import { connect, eventually, LEAD_MUTATION, leadInput, wsUrl, type LiveClient } from './fixtures/live-helpers.js';
import { CLOSE_CODES } from '../src/http/tour-viewer-ws.js';

const GATE_SET =
  'mutation($input: TourLeadGateSetInput!) { tourLeadGateSet(input: $input) { id leadGateSettings { mode markerId seconds approval } } }';
const MARKER_SAVE = 'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }';
const GATE_LEAD = LEAD_MUTATION.replace(
  'viewingSessionRequest {',
  'gate { state access waitToken } viewingSessionRequest {',
);
const APPROVE = 'mutation($id: ID!) { tourLeadApprove(id: $id) { id gate } }';
const LEADS =
  'query($waiting: Boolean) { tourLeads(waiting: $waiting) { id name gate stoppedAt tourTitle roomPath { name } } }';

interface PlayerTour {
  clips: Array<{ index: number; highURI: string; lowURI: string }>;
  markers: Array<{ name: string }>;
  leadGate: { roomName: string | null; seconds: number | null; approval: boolean; open: boolean } | null;
}

describe.each(DB_KINDS)('lead gate (%s)', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  let stranger: SeededUser;
  let tourId: string;
  let rowId: string;
  let kitchen: string;
  let living: string;
  /** The whole tour as its owner sees it: every clip's files. */
  let whole: PlayerTour;
  const sockets: LiveClient[] = [];
  const setGate = (input: Record<string, unknown>, token = owner.token) =>
    t.gql(GATE_SET, { input: { id: tourId, approval: true, ...input } }, token);
  const getTour = async () =>
    (
      (await (
        await fetch(
          `${t.url}/query?${new URLSearchParams({ query: PLAYER_TOUR_QUERY, variables: JSON.stringify({ tourID: tourId }) })}`,
        )
      ).json()) as { data: { tour: PlayerTour } }
    ).data.tour;
  const withAccess = async (access: string) =>
    (await t.gql<{ tour: PlayerTour }>(PLAYER_TOUR_ACCESS_QUERY, { tourID: tourId, access })).data.tour;
  const gateLead = async (over: Record<string, unknown> = {}) => {
    const r = await t.gql(GATE_LEAD, {
      input: leadInput(tourId, { leadType: 'CONTACT', gateFrame: 70, visitorId: 'visitor-gate-0001', ...over }),
    });
    expect(r.errors).toBeUndefined();
    return r.data.tourLeadCreate as {
      tourLead: { id: string };
      gate: { state: string; access: string | null; waitToken: string | null };
    };
  };
  const wait = (lead: string, token: string) => {
    const c = connect(wsUrl(t.url, { tourId, lead, token }));
    sockets.push(c);
    return c;
  };
  const approvalMail = (leadName: string) =>
    eventually(
      () =>
        t.app.services.db
          .selectFrom('mail_outbox')
          .selectAll()
          .where('subject', 'like', `${leadName}%waiting for your approval%`)
          .executeTakeFirst(),
      'the approval mail',
    );
  const gatedUrls = () => whole.clips.slice(2).flatMap((c) => [c.highURI, c.lowURI]);

  beforeAll(async () => {
    t = await startTestApp(kind, { ICE_SERVERS: '[]', RATE_LIMIT_DISABLED: true });
    owner = await seedUser(t.app, { plan: 'pro' });
    stranger = await seedUser(t.app, { plan: 'pro' });
    const seeded = await seedProcessedTour(t, owner, 4); // 4 clips of 36 frames: 0-35, 36-71, 72-107, 108-143
    tourId = seeded.id;
    rowId = seeded.row.id;
    const save = async (name: string, frameIndex: number) =>
      (await t.gql(MARKER_SAVE, { input: { tourId, name, frameIndex } }, owner.token)).data.markerSave.id as string;
    living = await save('Living room', 10);
    await save('Bedroom', 40);
    kitchen = await save('Kitchen', 80);
    whole = (await t.gql<{ tour: PlayerTour }>(PLAYER_TOUR_QUERY, { tourID: tourId }, owner.token)).data.tour;
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.stop();
  });

  it("refuses a gate that cannot work, in the owner's words, changing nothing; strangers may not set one", async () => {
    const early = await setGate({ mode: 'ROOM', markerId: living });
    expect(early.errors?.[0]?.message).toBe('The form cannot come before the first room. Choose a later room.');
    expect((await setGate({ mode: 'ROOM' })).errors?.[0]?.message).toBe('Choose the room the form comes before.');
    expect(
      (await setGate({ mode: 'ROOM', markerId: 'mark_00000000-0000-4000-8000-000000000000' })).errors?.[0]?.message,
    ).toBe('That room is not in this tour. Choose one of its rooms.');
    expect((await setGate({ mode: 'ROOM', markerId: '../../etc' })).errors?.[0]?.message).toBe(
      'That room is not in this tour. Choose one of its rooms.',
    );
    expect((await setGate({ mode: 'SECONDS', seconds: 2 })).errors?.[0]?.message).toBe(
      'Choose between 5 and 3600 seconds.',
    );
    expect((await setGate({ mode: 'SIDEWAYS' })).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await setGate({ mode: 'ROOM', markerId: kitchen }, stranger.token)).errors?.[0]?.extensions?.code).toBe(
      'NOT_FOUND',
    );
    const row = await t.app.services.db
      .selectFrom('tours')
      .select(['lead_gate_marker_id', 'lead_gate_seconds', 'lead_gate_approval'])
      .where('id', '=', rowId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ lead_gate_marker_id: null, lead_gate_seconds: null, lead_gate_approval: false });
    // A lead cannot claim a gate the tour does not have.
    const r = await t.gql(GATE_LEAD, { input: leadInput(tourId, { leadType: 'CONTACT', gateFrame: 70 }) });
    expect(r.errors?.[0]?.message).toBe('This tour does not ask for details.');
  });

  it('a room gate: visitors get the clips up to the room only, and the files past it are not served unsigned', async () => {
    // Warm the cached answer first: the change must drop it.
    expect((await getTour()).clips).toHaveLength(4);
    const set = await setGate({ mode: 'ROOM', markerId: kitchen });
    expect(set.data.tourLeadGateSet.leadGateSettings).toEqual({
      mode: 'ROOM',
      markerId: kitchen,
      seconds: null,
      approval: true,
    });
    const seen = await getTour();
    expect(seen.clips.map((c) => c.index)).toEqual([0, 1]);
    expect(seen.leadGate).toEqual({ roomName: 'Kitchen', seconds: null, approval: true, open: false });
    // The rooms before the gate still play from plain URLs.
    for (const c of seen.clips) expect((await fetch(c.highURI)).status).toBe(200);
    // The files past it: Not found without a signature, by range or HEAD, whatever is made up.
    for (const url of gatedUrls()) {
      expect((await fetch(url)).status).toBe(404);
      expect((await fetch(url, { headers: { range: 'bytes=0-9' } })).status).toBe(404);
      expect((await fetch(url, { method: 'HEAD' })).status).toBe(404);
      expect((await fetch(`${url}?e=9999999999&v=0&s=${'A'.repeat(43)}`)).status).toBe(404);
    }
    // A grant without a lead (tourUnlock answers one for a public tour) is no pass; nor is a forged pass.
    const plain = (
      await t.gql('mutation($id: ID!) { tourUnlock(tourID: $id, password: "x") { access } }', { id: tourId })
    ).data.tourUnlock.access as string;
    expect((await withAccess(plain)).clips).toHaveLength(2);
    const forged = `${plain.split('.').slice(0, 2).join('.')}.00000000-0000-4000-8000-000000000000.${plain.split('.')[2]}`;
    expect((await withAccess(forged)).clips).toHaveLength(2);
    // The owner and colleagues see the whole tour.
    const mine = (await t.gql<{ tour: PlayerTour }>(PLAYER_TOUR_QUERY, { tourID: tourId }, owner.token)).data.tour;
    expect(mine.clips).toHaveLength(4);
    expect(mine.leadGate?.open).toBe(true);
  });

  it('the visitor waits; the mailed link shows who, approves once on POST, and the waiting socket gets the pass', async () => {
    const { tourLead, gate } = await gateLead({ name: 'Wanda', surname: 'Waiter' });
    expect(gate.state).toBe('WAITING');
    expect(gate.access).toBeNull();
    // The wait credential is no pass.
    expect((await withAccess(gate.waitToken!)).clips).toHaveLength(2);
    // Hostile waits: another lead's id, a made-up token, a missing one.
    const other = await gateLead({ name: 'Otto' });
    for (const [lead, token] of [
      [other.tourLead.id, gate.waitToken!],
      [tourLead.id, 'x'.repeat(300)],
      [tourLead.id, `9999999999.${'A'.repeat(43)}`],
      [tourLead.id, ''],
    ] as const) {
      expect((await wait(lead, token).closed).code).toBe(CLOSE_CODES.unauthorised);
    }
    const socket = wait(tourLead.id, gate.waitToken!);
    await socket.next((m) => m.type === 'roomwalk_gate_waiting', 'waiting');

    const mail = await approvalMail('Wanda Waiter');
    expect(mail.text_body).toContain('Stopped at: Bedroom');
    const link = (mail.links as string[])[0]!;
    expect(link).toMatch(/\/lead-gate\/approve\?token=/);
    // Opening the link (a person, or a mail scanner) approves nobody.
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Let Wanda Waiter continue?');
    expect(
      (
        await t.app.services.db
          .selectFrom('tour_leads')
          .select('gate')
          .where('id', '=', tourLead.id.slice(5))
          .executeTakeFirstOrThrow()
      ).gate,
    ).toBe('WAITING');
    expect(socket.messages.some((m) => m.type === 'roomwalk_gate_open')).toBe(false);

    const token = new URL(link).searchParams.get('token')!;
    const post = () =>
      fetch(`${t.url}/lead-gate/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }).toString(),
      });
    const approved = await post();
    expect(approved.status).toBe(200);
    expect(await approved.text()).toContain('Wanda Waiter can continue');
    const open = await socket.next((m) => m.type === 'roomwalk_gate_open', 'the pass');
    const full = await withAccess(open.access as string);
    expect(full.clips).toHaveLength(4);
    expect(full.leadGate?.open).toBe(true);
    for (const c of full.clips.slice(2)) {
      expect(c.highURI).toMatch(/\?e=\d+&v=\d+&s=/);
      expect((await fetch(c.highURI, { headers: { range: 'bytes=0-9' } })).status).toBe(206);
    }
    // Used once: again (POST or GET) it approves nothing and says so.
    expect((await post()).status).toBe(410);
    const again = await fetch(link);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('This link no longer approves anyone');
    // A socket that comes after the approval is handed the pass at once.
    const late = wait(tourLead.id, gate.waitToken!);
    await late.next((m) => m.type === 'roomwalk_gate_open', 'the pass, late');
  });

  it('the agent approves from the Leads list; strangers cannot; the lead shows where the visitor stopped', async () => {
    const { tourLead, gate } = await gateLead({ name: 'Lena', gateFrame: 71 });
    const socket = wait(tourLead.id, gate.waitToken!);
    await socket.next((m) => m.type === 'roomwalk_gate_waiting', 'waiting');
    const waiting = (await t.gql(LEADS, { waiting: true }, owner.token)).data.tourLeads as Array<{
      id: string;
      name: string;
      gate: string;
      stoppedAt: string;
      tourTitle: string;
    }>;
    expect(waiting.map((l) => l.name)).toContain('Lena');
    expect(waiting.every((l) => l.gate === 'WAITING')).toBe(true);
    expect(waiting.find((l) => l.id === tourLead.id)).toMatchObject({ stoppedAt: 'Bedroom', tourTitle: 'Seeded' });
    // Another company sees none of them, and cannot approve.
    expect((await t.gql(LEADS, { waiting: true }, stranger.token)).data.tourLeads).toEqual([]);
    expect((await t.gql(APPROVE, { id: tourLead.id }, stranger.token)).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await t.gql(APPROVE, { id: tourLead.id })).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(socket.messages.some((m) => m.type === 'roomwalk_gate_open')).toBe(false);

    const ok = await t.gql(APPROVE, { id: tourLead.id }, owner.token);
    expect(ok.data.tourLeadApprove.gate).toBe('APPROVED');
    const open = await socket.next((m) => m.type === 'roomwalk_gate_open', 'the pass');
    expect((await withAccess(open.access as string)).clips).toHaveLength(4);
    expect(
      ((await t.gql(LEADS, { waiting: true }, owner.token)).data.tourLeads as Array<{ id: string }>).some(
        (l) => l.id === tourLead.id,
      ),
    ).toBe(false);
    // The mailed link of a lead approved in the console approves nothing more.
    const mail = await approvalMail('Lena');
    expect((await fetch((mail.links as string[])[0]!)).status).toBe(410);
  });

  it('an expired mail link approves nobody and leaves the visitor waiting', async () => {
    const { tourLead } = await gateLead({ name: 'Edgar' });
    const mail = await approvalMail('Edgar');
    await t.app.services.db
      .updateTable('tour_leads')
      .set({ gate_token_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', tourLead.id.slice(5))
      .execute();
    const link = (mail.links as string[])[0]!;
    expect((await fetch(link)).status).toBe(410);
    const post = await fetch(`${t.url}/lead-gate/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: new URL(link).searchParams.get('token')! }).toString(),
    });
    expect(post.status).toBe(410);
    expect(
      (
        await t.app.services.db
          .selectFrom('tour_leads')
          .select('gate')
          .where('id', '=', tourLead.id.slice(5))
          .executeTakeFirstOrThrow()
      ).gate,
    ).toBe('WAITING');
  });

  it('without approval the form answers the pass at once; turning the gate off gives everyone the whole tour again', async () => {
    await setGate({ mode: 'ROOM', markerId: kitchen, approval: false });
    const { gate } = await gateLead({ name: 'Ida' });
    expect(gate.state).toBe('OPEN');
    expect(gate.waitToken).toBeNull();
    expect((await withAccess(gate.access!)).clips).toHaveLength(4);
    // A seconds gate keeps the whole answer (the prompt is the player's) and tells the player when to ask.
    await setGate({ mode: 'SECONDS', seconds: 30 });
    const timed = await getTour();
    expect(timed.clips).toHaveLength(4);
    expect(timed.leadGate).toEqual({ roomName: null, seconds: 30, approval: true, open: false });
    await setGate({ mode: 'OFF' });
    const open = await getTour();
    expect(open.clips).toHaveLength(4);
    expect(open.leadGate).toBeNull();
    for (const url of gatedUrls()) expect((await fetch(url)).status).toBe(200);
  });
});
