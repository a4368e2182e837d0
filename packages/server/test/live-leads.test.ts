/** tourLeadCreate and the host's viewingSessionRequest (docs/live-viewing.md). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, VALIDATION } from '@roomwalk/shared';
import { collect, DB_KINDS, startTestApp, type GqlResult, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { eventually, LEAD_MUTATION, leadInput, seedTour, sessionOf } from './fixtures/live-helpers.js';
import { createSignalingTokens } from '../src/services/live/signaling-token.js';

const HOST_SESSION = `query($id: ID!, $session: ID) { tour(tourID: $id) { id viewingSessionRequest(session: $session) { rtcToken signalingToken appId viewingSessionUserId expireTime } } }`;

describe.each(DB_KINDS)('live viewing leads on %s', (kind) => {
  let t: TestApp;
  let agent: SeededUser;
  let tour: { id: string; globalId: string };

  beforeAll(async () => {
    t = await startTestApp(kind, { ICE_SERVERS: '[]', RATE_LIMIT_DISABLED: true });
    agent = await seedUser(t.app, { name: 'Anna', surname: 'Agent' });
    tour = await seedTour(t.app, agent);
  });
  afterAll(async () => t?.stop());

  it("stores a live viewing lead, answers the visitor's session, mails the agent a host link and tells the console at once", async () => {
    const sub = collect<{
      tourLeadCreated: {
        name: string;
        email: string;
        leadType: string;
        tourId: string;
        viewingSessionId: string | null;
      };
    }>(
      t.wsClient(agent.token),
      'subscription { tourLeadCreated { name email leadType tourId viewingSessionId } }',
      {},
      1,
    );
    await sub.ready;
    // The server registers the subscription a moment after the socket connects: leave leads until one is seen.
    let res: GqlResult | undefined;
    let seen = false;
    void sub.done.then(() => (seen = true));
    for (let i = 0; i < 50 && !seen; i++) {
      res ??= await t.gql(LEAD_MUTATION, {
        input: leadInput(tour.globalId, { email: '  Vera@Example.com ', contactNumber: '+27 82 123 4567' }),
      });
      if (i > 0) await t.gql(LEAD_MUTATION, { input: leadInput(tour.globalId, { leadType: 'CONTACT' }) });
      await Promise.race([sub.done, new Promise((r) => setTimeout(r, 100))]);
    }
    res = res!;
    expect(res.errors).toBeUndefined();
    const { tourLead, viewingSessionRequest: vsr } = res.data.tourLeadCreate;
    expect(tourLead).toMatchObject({
      name: 'Vera',
      surname: 'Visitor',
      email: 'vera@example.com',
      leadType: 'LIVE_VIEWING',
      tourId: tour.globalId,
    });
    expect(tourLead.id).toMatch(/^lead_/);
    expect(vsr.rtcToken).toBeNull();
    expect(vsr.appId).toBeNull();
    expect(vsr.viewingSessionUserId).toMatch(/^viewer-/);
    expect(new Date(vsr.expireTime).getTime()).toBeGreaterThan(Date.now());

    const claims = await createSignalingTokens(t.app.config.jwtSecret, Date.now).verify(vsr.signalingToken);
    expect(claims).toMatchObject({
      ok: true,
      claims: { tourId: tour.id, role: 'viewer', userId: vsr.viewingSessionUserId },
    });

    const session = sessionOf(vsr.signalingToken);
    const mail = await eventually(
      () =>
        t.app.services.db
          .selectFrom('mail_outbox')
          .selectAll()
          .where('to_address', '=', agent.user.username)
          .where('subject', 'like', '%is waiting for you%')
          .orderBy('created_at')
          .executeTakeFirst(),
      'the mail to the agent',
    );
    expect(mail.subject).toContain('Vera Visitor is waiting for you');
    expect(mail.links).toEqual([`${t.url}/agentplayer?tourId=${tour.globalId}&liveViewing=true&session=${session}`]);
    // The lead names its session, so the console's notice can link to it as the mail does.
    expect(tourLead.viewingSessionId).toBe(session);
    expect(mail.text_body).toContain('vera@example.com');

    const [event] = await sub.done;
    expect(event!.tourLeadCreated).toMatchObject({ name: 'Vera', email: 'vera@example.com', tourId: tour.globalId });
    // The first event seen may be one of the contact leads left while waiting for the subscription.
    const seenLead = event!.tourLeadCreated;
    if (seenLead.leadType === 'LIVE_VIEWING') expect(seenLead.viewingSessionId).toBe(session);
    else expect(seenLead.viewingSessionId).toBeNull();
  });

  it('gives the host tokens for the session named in the link, and nothing to visitors', async () => {
    const lead = await t.gql(LEAD_MUTATION, { input: leadInput(tour.globalId) });
    const session = sessionOf(lead.data.tourLeadCreate.viewingSessionRequest.signalingToken);
    const host = await t.gql(HOST_SESSION, { id: tour.globalId, session }, agent.token);
    expect(host.errors).toBeUndefined();
    const vsr = host.data.tour.viewingSessionRequest;
    expect(vsr.viewingSessionUserId).toBe(`host-${agent.user.id}`);
    expect(sessionOf(vsr.signalingToken)).toBe(session);
    const claims = await createSignalingTokens(t.app.config.jwtSecret, Date.now).verify(vsr.signalingToken);
    expect(claims).toMatchObject({ ok: true, claims: { role: 'host', sessionId: session } });

    const anonymous = await t.gql(HOST_SESSION, { id: tour.globalId, session });
    expect(anonymous.data.tour.viewingSessionRequest).toBeNull();
    const stranger = await seedUser(t.app);
    const other = await t.gql(HOST_SESSION, { id: tour.globalId, session }, stranger.token);
    expect(other.data.tour.viewingSessionRequest).toBeNull();
    const unknown = await t.gql(
      HOST_SESSION,
      { id: tour.globalId, session: '00000000-0000-4000-8000-000000000000' },
      agent.token,
    );
    expect(unknown.data.tour.viewingSessionRequest).toBeNull();
  });

  it('lets a host go live first; the next visitor joins that waiting session', async () => {
    const own = await seedTour(t.app, agent, { title: 'Host first' });
    const host = await t.gql(HOST_SESSION, { id: own.globalId }, agent.token);
    const hostSession = sessionOf(host.data.tour.viewingSessionRequest.signalingToken);
    const again = await t.gql(HOST_SESSION, { id: own.globalId }, agent.token);
    expect(sessionOf(again.data.tour.viewingSessionRequest.signalingToken)).toBe(hostSession);
    const first = await t.gql(LEAD_MUTATION, { input: leadInput(own.globalId) });
    expect(sessionOf(first.data.tourLeadCreate.viewingSessionRequest.signalingToken)).toBe(hostSession);
    expect(first.data.tourLeadCreate.tourLead.viewingSessionId).toBe(hostSession);
    const second = await t.gql(LEAD_MUTATION, { input: leadInput(own.globalId) });
    expect(sessionOf(second.data.tourLeadCreate.viewingSessionRequest.signalingToken)).not.toBe(hostSession);
  });

  it("stores the contact number in the profile's '+{code} {national}' form, whether typed national or international", async () => {
    for (const [typed, stored] of [
      ['0821112222', '+27 821112222'],
      ['+27 82 111 2222', '+27 821112222'],
      ['+44 20 7946 0018', '+44 2079460018'],
    ] as const) {
      const res = await t.gql(LEAD_MUTATION, {
        input: leadInput(tour.globalId, { leadType: 'CONTACT', contactNumber: typed }),
      });
      expect(res.errors).toBeUndefined();
      const id = (res.data.tourLeadCreate.tourLead.id as string).replace(/^lead_/, '');
      const row = await t.app.services.db
        .selectFrom('tour_leads')
        .select('contact_number')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.contact_number, typed).toBe(stored);
    }
  });

  it('stores a contact lead without a session', async () => {
    const res = await t.gql(LEAD_MUTATION, { input: leadInput(tour.globalId, { leadType: 'CONTACT' }) });
    expect(res.errors).toBeUndefined();
    expect(res.data.tourLeadCreate.tourLead.leadType).toBe('CONTACT');
    expect(res.data.tourLeadCreate.viewingSessionRequest).toBeNull();
    expect(res.data.tourLeadCreate.tourLead.viewingSessionId).toBeNull();
  });

  it("refuses bad details with the spec's messages and stores nothing", async () => {
    const before = await t.app.services.db
      .selectFrom('tours')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ email: 'not-an-email' }, VALIDATION.emailInvalid],
      [{ email: '   ' }, VALIDATION.emailRequired],
      [{ name: ' ' }, VALIDATION.nameRequired],
      [{ turnstileToken: '' }, VALIDATION.humanCheckRequired],
    ];
    for (const [over, message] of cases) {
      const res = await t.gql(LEAD_MUTATION, { input: leadInput(tour.globalId, over) });
      expect(res.errors?.[0]).toMatchObject({ message, extensions: { code: ERROR_CODES.BAD_USER_INPUT } });
    }
    const failed = await t.gql(LEAD_MUTATION, { input: leadInput(tour.globalId, { turnstileToken: 'forged' }) });
    expect(failed.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.HUMAN_CHECK_FAILED);
    const after = await t.app.services.db
      .selectFrom('tours')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('takes leads only on public tours', async () => {
    const deleted = await seedTour(t.app, agent, { deleted: true });
    const processing = await seedTour(t.app, agent, { status: 'PROCESSING' });
    expect((await t.gql(LEAD_MUTATION, { input: leadInput(deleted.globalId) })).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.TOUR_REMOVED,
    );
    expect((await t.gql(LEAD_MUTATION, { input: leadInput(processing.globalId) })).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.TOUR_NOT_PROCESSED,
    );
    expect(
      (await t.gql(LEAD_MUTATION, { input: leadInput('tour_00000000-0000-4000-8000-000000000000') })).errors?.[0]
        ?.extensions?.code,
    ).toBe(ERROR_CODES.NOT_FOUND);
    expect((await t.gql(LEAD_MUTATION, { input: leadInput('garbage') })).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.INVALID_TOUR_ID,
    );
  });
});

describe('live viewing leads: limits and Agora', () => {
  it('limits leads per client address', async () => {
    const t = await startTestApp('pglite', { ICE_SERVERS: '[]' });
    try {
      const agent = await seedUser(t.app);
      const tour = await seedTour(t.app, agent);
      const codes: Array<string | undefined> = [];
      for (let i = 0; i < 11; i++)
        codes.push(
          (await t.gql(LEAD_MUTATION, { input: leadInput(tour.globalId, { leadType: 'CONTACT' }) })).errors?.[0]
            ?.extensions?.code,
        );
      expect(codes.slice(0, 10)).toEqual(new Array(10).fill(undefined));
      expect(codes[10]).toBe(ERROR_CODES.RATE_LIMITED);
    } finally {
      await t.stop();
    }
  });

  it('issues an Agora rtcToken and appId when Agora is configured', async () => {
    const appId = '970ca35de60c44645bbae8a215061b33';
    const t = await startTestApp('pglite', {
      AGORA_APP_ID: appId,
      AGORA_APP_CERTIFICATE: '5cfd2fd1755d40ecb72977518be15d3b',
      ICE_SERVERS: '[]',
    });
    try {
      const agent = await seedUser(t.app);
      const tour = await seedTour(t.app, agent);
      const res = await t.gql(LEAD_MUTATION, { input: leadInput(tour.globalId) });
      const vsr = res.data.tourLeadCreate.viewingSessionRequest;
      expect(vsr.appId).toBe(appId);
      // AccessToken2: version "007" then base64 content.
      expect(vsr.rtcToken).toMatch(/^007[A-Za-z0-9+/=]{40,}$/);
      const host = await t.gql(
        HOST_SESSION,
        { id: tour.globalId, session: sessionOf(vsr.signalingToken) },
        agent.token,
      );
      expect(host.data.tour.viewingSessionRequest.rtcToken).toMatch(/^007/);
      expect(host.data.tour.viewingSessionRequest.rtcToken).not.toBe(vsr.rtcToken);
    } finally {
      await t.stop();
    }
  });
});
