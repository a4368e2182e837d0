/** The live viewing socket: admission and close codes, relay in rooms, signalling, limits (docs/live-viewing.md). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { connect, createLead, participantToken, seedTour, wsUrl, type LiveClient } from './fixtures/live-helpers.js';
import { CLOSE_CODES, LIVE_LIMITS } from '../src/http/tour-viewer-ws.js';
import { LIVE_SOCKET_MESSAGES } from '@roomwalk/shared/schemas/socket-messages';
import { createSignalingTokens } from '../src/services/live/signaling-token.js';

const welcome = (c: LiveClient) => c.next((m) => m.type === 'roomwalk_welcome', 'welcome');

describe.each(DB_KINDS)('live viewing socket on %s', (kind) => {
  let t: TestApp;
  let agent: SeededUser;
  let tour: { id: string; globalId: string };
  const open: LiveClient[] = [];
  const client = (q: Record<string, string>, headers: Record<string, string> = {}) => {
    const c = connect(wsUrl(t.url, q), headers);
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await startTestApp(kind, {
      ICE_SERVERS:
        '[{"urls":"stun:stun.example.org:3478"},{"urls":["turn:turn.example.org:3478"],"username":"u","credential":"p"}]',
      RATE_LIMIT_DISABLED: true,
      LIVE_ALLOWED_ORIGINS: 'https://agency.example',
    });
    agent = await seedUser(t.app);
    tour = await seedTour(t.app, agent);
  });
  afterAll(async () => {
    for (const c of open) c.close();
    await t?.stop();
  });

  it('relays roomwalk_scrolling from the host to the viewer and back, within one session only', async () => {
    const lead = await createLead(t, tour.globalId);
    const other = await createLead(t, tour.globalId);
    const viewer = client({ tourId: tour.globalId, token: lead.token });
    const w = await welcome(viewer);
    expect(w).toMatchObject({
      role: 'viewer',
      userId: lead.userId,
      tourId: tour.globalId,
      session: lead.session,
      peers: [],
    });
    expect(w.iceServers).toEqual([
      { urls: 'stun:stun.example.org:3478' },
      { urls: ['turn:turn.example.org:3478'], username: 'u', credential: 'p' },
    ]);
    const stranger = client({ tourId: tour.globalId, token: other.token });
    await welcome(stranger);

    const host = client({ tourId: tour.globalId, session: lead.session, token: agent.token });
    const hw = await welcome(host);
    expect(hw).toMatchObject({ role: 'host', userId: `host-${agent.user.id}` });
    expect(hw.peers).toEqual([{ peerId: w.peerId, role: 'viewer', userId: lead.userId }]);
    await viewer.next((m) => m.type === 'roomwalk_peer_joined' && m.peer.peerId === hw.peerId, 'host joined');

    host.send({ type: 'roomwalk_scrolling', tourId: tour.globalId, data: { frameIndex: 42.5 } });
    const got = await viewer.next((m) => m.type === 'roomwalk_scrolling', 'scroll');
    expect(got).toEqual({
      type: 'roomwalk_scrolling',
      tourId: tour.globalId,
      data: { frameIndex: 42.5 },
      from: hw.peerId,
    });
    viewer.send({ type: 'roomwalk_scrolling', tourId: tour.globalId, data: { frameIndex: 7 } });
    expect((await host.next((m) => m.type === 'roomwalk_scrolling', 'scroll back')).data).toEqual({ frameIndex: 7 });
    // A marker after both proves ordering: the stranger in another session saw neither.
    host.send({ type: 'roomwalk_scrolling', tourId: tour.globalId, data: { frameIndex: 43 } });
    await viewer.next((m) => m.type === 'roomwalk_scrolling' && m.data.frameIndex === 43, 'second scroll');
    expect(stranger.messages.filter((m) => m.type === 'roomwalk_scrolling')).toEqual([]);
    expect(host.messages.filter((m) => m.type === 'roomwalk_scrolling' && m.data.frameIndex !== 7)).toEqual([]);

    viewer.close();
    await host.next((m) => m.type === 'roomwalk_peer_left' && m.peer.peerId === w.peerId, 'viewer left');
  });

  it('carries signalling between host and viewer only, to the peer named', async () => {
    const lead = await createLead(t, tour.globalId);
    const viewer = client({ tourId: tour.globalId, token: lead.token });
    const vw = await welcome(viewer);
    // A second viewer in the room is a second participant (a second socket of one token would replace the first).
    const viewer2 = client({
      tourId: tour.globalId,
      token: await participantToken(t.app, tour.id, lead.session, 'viewer-second'),
    });
    const v2w = await welcome(viewer2);
    const host = client({ tourId: tour.globalId, session: lead.session, token: agent.token });
    const hw = await welcome(host);

    viewer.send({ type: 'roomwalk_signal', data: { kind: 'ready' } });
    const ready = await host.next((m) => m.type === 'roomwalk_signal', 'ready');
    expect(ready).toEqual({
      type: 'roomwalk_signal',
      from: vw.peerId,
      fromRole: 'viewer',
      fromUser: lead.userId,
      data: { kind: 'ready' },
    });
    host.send({
      type: 'roomwalk_signal',
      to: vw.peerId,
      data: { kind: 'offer', sdp: 'v=0\r\n' + 'a=x\r\n'.repeat(1500) },
    });
    const offer = await viewer.next((m) => m.type === 'roomwalk_signal', 'offer');
    expect(offer.data.kind).toBe('offer');
    expect(offer.from).toBe(hw.peerId);
    // Viewers never hear each other's signalling, nor a directed offer to someone else.
    viewer2.send({ type: 'roomwalk_scrolling', tourId: tour.globalId, data: { frameIndex: 1 } });
    await viewer.next((m) => m.type === 'roomwalk_scrolling' && m.from === v2w.peerId, 'marker');
    expect(viewer2.messages.filter((m) => m.type === 'roomwalk_signal')).toEqual([]);
    expect(host.messages.filter((m) => m.type === 'roomwalk_signal' && m.from === v2w.peerId)).toEqual([]);
  });

  it("closes with 4001 without a valid token, 4003 for a stranger, another session's token or a foreign origin, 4002 when expired, 4004 for an unknown session", async () => {
    const lead = await createLead(t, tour.globalId);
    const stranger = await seedUser(t.app);
    const cases: Array<[Record<string, string>, number, Record<string, string>?]> = [
      [{ tourId: tour.globalId, token: '' }, CLOSE_CODES.unauthorised],
      [{ tourId: tour.globalId, session: lead.session, token: 'nonsense' }, CLOSE_CODES.unauthorised],
      [{ tourId: tour.globalId, session: lead.session, token: stranger.token }, CLOSE_CODES.forbidden],
      [
        { tourId: tour.globalId, session: '00000000-0000-4000-8000-000000000000', token: lead.token },
        CLOSE_CODES.forbidden,
      ],
      // The host's own token only from our origins (a visitor's signalling token works from any: see below).
      [
        { tourId: tour.globalId, session: lead.session, token: agent.token },
        CLOSE_CODES.forbidden,
        { origin: 'https://evil.example' },
      ],
      [
        { tourId: tour.globalId, session: '00000000-0000-4000-8000-000000000000', token: agent.token },
        CLOSE_CODES.notFound,
      ],
      [{ tourId: 'nonsense', token: lead.token }, CLOSE_CODES.badRequest],
    ];
    for (const [q, code, headers] of cases) {
      const c = client(q, headers ?? {});
      expect((await c.closed).code, JSON.stringify(q)).toBe(code);
    }
    const allowed = client({ tourId: tour.globalId, token: lead.token }, { origin: 'https://agency.example' });
    await welcome(allowed);
    const same = client({ tourId: tour.globalId, token: lead.token }, { origin: t.url });
    await welcome(same);
    // A listing site embedding the player by script tag: the visitor's socket comes from its own origin.
    const listing = client({ tourId: tour.globalId, token: lead.token }, { origin: 'https://listing.example' });
    await welcome(listing);

    const tokens = createSignalingTokens(t.app.config.jwtSecret, Date.now);
    const expired = await tokens.sign({
      tourId: tour.id,
      sessionId: lead.session,
      role: 'viewer',
      userId: 'viewer-x',
      exp: Math.floor(Date.now() / 1000) - 5,
    });
    expect((await client({ tourId: tour.globalId, token: expired }).closed).code).toBe(CLOSE_CODES.sessionExpired);
  });

  it('takes the credentials as the first message (roomwalk_live_hello), none in the URL; anything else first closes with 4001', async () => {
    const lead = await createLead(t, tour.globalId);
    const viewer = client({ tourId: tour.globalId });
    await viewer.opened;
    viewer.send({ type: LIVE_SOCKET_MESSAGES.hello, token: lead.token });
    expect(await welcome(viewer)).toMatchObject({ role: 'viewer', userId: lead.userId, session: lead.session });
    const host = client({ tourId: tour.globalId, session: lead.session });
    await host.opened;
    host.send({ type: LIVE_SOCKET_MESSAGES.hello, token: agent.token });
    expect(await welcome(host)).toMatchObject({ role: 'host' });
    // A scroll before the credentials is no credential; nor is a hello with a forged token.
    const early = client({ tourId: tour.globalId });
    await early.opened;
    early.send({ type: LIVE_SOCKET_MESSAGES.scrolling, data: { frameIndex: 3 } });
    expect((await early.closed).code).toBe(CLOSE_CODES.unauthorised);
    const forged = client({ tourId: tour.globalId });
    await forged.opened;
    forged.send({ type: LIVE_SOCKET_MESSAGES.hello, token: 'nonsense' });
    expect((await forged.closed).code).toBe(CLOSE_CODES.unauthorised);
  });

  it('closes the room when the session expires: "Session expired" with 4002', async () => {
    const lead = await createLead(t, tour.globalId);
    const viewer = client({ tourId: tour.globalId, token: lead.token });
    await welcome(viewer);
    // The session now ends in 300 ms: a socket admitted before then is closed at that moment.
    await t.app.services.db
      .updateTable('viewing_sessions')
      .set({ expires_at: new Date(Date.now() + 300) })
      .where('id', '=', lead.session)
      .execute();
    const tokens = createSignalingTokens(t.app.config.jwtSecret, Date.now);
    const short = await tokens.sign({
      tourId: tour.id,
      sessionId: lead.session,
      role: 'viewer',
      userId: 'viewer-y',
      exp: Math.floor(Date.now() / 1000) + 60,
    });
    const c = client({ tourId: tour.globalId, token: short });
    expect(await c.closed).toEqual({ code: CLOSE_CODES.sessionExpired, reason: 'Session expired' });
  });

  it('closes with 1009 for an oversized message, 4008 when flooding, 1003 for binary; ignores unknown types and answers bad frames with an error', async () => {
    const lead = await createLead(t, tour.globalId);
    const big = client({ tourId: tour.globalId, token: lead.token });
    await welcome(big);
    big.send({
      type: 'roomwalk_scrolling',
      tourId: tour.globalId,
      data: { frameIndex: 1 },
      pad: 'x'.repeat(LIVE_LIMITS.scrollMessageBytes),
    });
    expect((await big.closed).code).toBe(CLOSE_CODES.tooBig);

    const hugeSignal = client({ tourId: tour.globalId, token: lead.token });
    await welcome(hugeSignal);
    hugeSignal.send({
      type: 'roomwalk_signal',
      data: { kind: 'offer', sdp: 'x'.repeat(LIVE_LIMITS.signalMessageBytes) },
    });
    expect((await hugeSignal.closed).code).toBe(CLOSE_CODES.tooBig);

    const flood = client({ tourId: tour.globalId, token: lead.token });
    await welcome(flood);
    for (let i = 0; i < LIVE_LIMITS.burst * 3; i++)
      flood.send({ type: 'roomwalk_scrolling', tourId: tour.globalId, data: { frameIndex: i } });
    expect((await flood.closed).code).toBe(CLOSE_CODES.rateLimited);

    const binary = client({ tourId: tour.globalId, token: lead.token });
    await welcome(binary);
    binary.ws.send(Buffer.from([1, 2, 3]));
    expect((await binary.closed).code).toBe(CLOSE_CODES.unsupportedData);

    const polite = client({ tourId: tour.globalId, token: lead.token });
    await welcome(polite);
    polite.send({ type: 'roomwalk_future_feature' });
    for (const frameIndex of ['12', null, -1, 1e12])
      polite.send({ type: 'roomwalk_scrolling', tourId: tour.globalId, data: { frameIndex } });
    polite.send('{not json');
    polite.send({
      type: 'roomwalk_scrolling',
      tourId: 'tour_00000000-0000-4000-8000-000000000000',
      data: { frameIndex: 3 },
    });
    const deadline = () => polite.messages.filter((m) => m.type === 'roomwalk_error').length >= 6;
    await polite.next(() => deadline(), 'six errors');
    expect(polite.messages.filter((m) => m.type === 'roomwalk_error').map((m) => m.code)).toEqual(
      new Array(6).fill('BAD_MESSAGE'),
    );
    expect(polite.ws.readyState).toBe(polite.ws.OPEN);
  });
});
