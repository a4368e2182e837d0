/**
 * A journey (password tour, lead gate, audience link) leaves nothing in the production access log that opens anything
 * (docs/access-and-privacy.md, "No capability in a URL"). The real app runs with its production logger writing to a
 * buffer; a visitor walks a password tour with a lead gate as the player does (the grant and the pass in the
 * X-Roomwalk-Access header, the link's token in X-Roomwalk-Link, the wait credential as the socket's first message),
 * the agent approves from the mailed link, a buyer opens an audience link's page, and an older client still sends its
 * capabilities in URLs. Every capability the journey handled (grants, passes, the wait credential, the mailed token,
 * the link's token, media signatures) is then looked for in the log, as is and URL-encoded once and twice.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CAPABILITY_HEADERS,
  PLAYER_TOUR_ACCESS_QUERY,
  PLAYER_TOUR_LINK_QUERY,
  TOUR_UNLOCK_MUTATION,
} from '@roomwalk/shared/player-documents';
import { seedProcessedTour } from '../fixtures/tours.js';
import { connect, LEAD_MUTATION, leadInput, wsUrl, type LiveClient } from '../fixtures/live-helpers.js';
import { seedUser, type SeededUser } from '../helpers/seed.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { CLIENT_ADDRESSES, gqlPost, post } from './harness.js';

const GATE_SET = 'mutation($input: TourLeadGateSetInput!) { tourLeadGateSet(input: $input) { id } }';
const MARKER_SAVE = 'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }';
const SET_ACCESS = 'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id access } }';
const LINK_CREATE = 'mutation($input: AudienceLinkCreateInput!) { audienceLinkCreate(input: $input) { id token url } }';
const GATE_LEAD = LEAD_MUTATION.replace(
  'viewingSessionRequest {',
  'gate { state access waitToken } viewingSessionRequest {',
);

interface PlayerTour {
  clips: Array<{ highURI: string; lowURI: string }>;
  leadGate: { open: boolean } | null;
}

describe('a journey leaves no capability in the production access log (hostile)', () => {
  let t: TestApp;
  let smtp: SmtpInbox;
  /** Production asks a real human check: a siteverify stand-in on loopback that passes `human-ok`. */
  let siteverify: http.Server;
  let owner: SeededUser;
  const raw: string[] = [];
  const sockets: LiveClient[] = [];
  /** Every capability the journey handled, by what it is. */
  const handled = new Map<string, string>();
  const keep = (what: string, value: string) => {
    expect(value.length, what).toBeGreaterThan(10);
    if (!handled.has(value)) handled.set(value, what);
  };
  /** Each signed media URL's signature (`s`): a signed URL opens a protected file. */
  const keepSignatures = (tour: PlayerTour, what: string) => {
    for (const c of tour.clips)
      for (const uri of [c.highURI, c.lowURI]) {
        const s = new URL(uri).searchParams.get('s');
        if (s) keep(`${what} media signature`, s);
      }
  };

  /** The player's GET of its tour, capabilities in headers only. */
  const playerGet = async (tourID: string, caps: { access?: string; link?: string }) => {
    const query = caps.link ? PLAYER_TOUR_LINK_QUERY : PLAYER_TOUR_ACCESS_QUERY;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (caps.access) headers[CAPABILITY_HEADERS.access] = caps.access;
    if (caps.link) headers[CAPABILITY_HEADERS.link] = caps.link;
    const res = await fetch(`${t.url}/query?${new URLSearchParams({ query, variables: JSON.stringify({ tourID }) })}`, {
      headers,
    });
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const body = (await res.json()) as { data?: { tour: PlayerTour }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data!.tour;
  };

  beforeAll(async () => {
    smtp = await startSmtpInbox();
    siteverify = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ success: new URLSearchParams(body).get('response') === 'human-ok' }));
      });
    });
    await new Promise<void>((r) => siteverify.listen(0, '127.0.0.1', r));
    const verifyUrl = `http://127.0.0.1:${(siteverify.address() as AddressInfo).port}/siteverify`;
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => raw.push(...String(chunk).split('\n').filter(Boolean)));
    t = await startTestApp(
      'pglite',
      {
        NODE_ENV: 'production',
        ROLE: 'all',
        LOG_LEVEL: 'info',
        SMTP_URL: smtp.url,
        ICE_SERVERS: '[]',
        TURNSTILE_SECRET: 'stub-secret',
        TURNSTILE_VERIFY_URL: verifyUrl,
      },
      { logStream: stream },
    );
    owner = await seedUser(t.app, { plan: 'pro' });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.stop();
    await smtp?.close();
    await new Promise((r) => siteverify?.close(r));
  });

  it('walks a password tour, its lead gate and an audience link, and logs nothing that opens any of it', async () => {
    const visitor = CLIENT_ADDRESSES[1];
    const seeded = await seedProcessedTour(t, owner, 4);
    const tourID = seeded.id;
    await t.gql(MARKER_SAVE, { input: { tourId: tourID, name: 'Hall', frameIndex: 0 } }, owner.token);
    const kitchen = await t.gql(
      MARKER_SAVE,
      { input: { tourId: tourID, name: 'Kitchen', frameIndex: 80 } },
      owner.token,
    );
    const gate = { id: tourID, mode: 'ROOM', markerId: kitchen.data.markerSave.id, approval: true };
    expect((await t.gql(GATE_SET, { input: gate }, owner.token)).errors).toBeUndefined();
    const access = { id: tourID, access: 'PASSWORD', password: 'open sesame 42' };
    expect((await t.gql(SET_ACCESS, { input: access }, owner.token)).errors).toBeUndefined();

    // The password screen (a POST: the password and the grant are in bodies only).
    const unlock = await gqlPost(t.url, TOUR_UNLOCK_MUTATION, { tourID, password: 'open sesame 42' }, visitor);
    const grant = unlock.json.data.tourUnlock.access as string;
    keep('password grant', grant);
    const beforeGate = await playerGet(tourID, { access: grant });
    expect(beforeGate.leadGate?.open).toBe(false);
    keepSignatures(beforeGate, 'before the gate');
    // The player fetches a signed clip.
    expect((await fetch(beforeGate.clips[0]!.highURI)).status).toBe(200);

    // The gate's form, then waiting on the socket (the credential as the first message).
    const lead = await gqlPost(
      t.url,
      GATE_LEAD,
      {
        input: leadInput(tourID, {
          leadType: 'CONTACT',
          gateFrame: 70,
          access: grant,
          visitorId: 'visitor-log-0001',
          turnstileToken: 'human-ok',
        }),
      },
      visitor,
    );
    expect(lead.json.errors).toBeUndefined();
    const { tourLead, gate: waiting } = lead.json.data.tourLeadCreate;
    keep('wait credential', waiting.waitToken);
    const waiter = connect(wsUrl(t.url, { tourId: tourID, lead: tourLead.id }), {}, visitor);
    sockets.push(waiter);
    await waiter.opened;
    waiter.send({ type: 'roomwalk_gate_wait', token: waiting.waitToken });
    await waiter.next((m) => m.type === 'roomwalk_gate_waiting', 'waiting');

    // The agent's mail: the link's page (GET), then Approve (POST, the token in the form).
    const mail = await vi.waitFor(
      () => {
        const m = smtp.inbox.find((r) => /lead-gate\/approve/.test(r.raw.replace(/=\r?\n/g, '')));
        if (!m) throw new Error('no approval mail yet');
        return m;
      },
      { timeout: 15_000, interval: 50 },
    );
    const unQp = mail.raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    const mailToken = /\/lead-gate\/approve\?token=([A-Za-z0-9_-]+)/.exec(unQp)?.[1] ?? '';
    keep('mailed approval token', mailToken);
    expect((await fetch(`${t.url}/lead-gate/approve?token=${mailToken}`)).status).toBe(200);
    const approved = await post(`${t.url}/lead-gate/approve`, `token=${mailToken}`, {
      from: CLIENT_ADDRESSES[2],
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    });
    expect(approved.status).toBe(200);
    const pass = (await waiter.next((m) => m.type === 'roomwalk_gate_open', 'the pass')).access as string;
    keep('gate pass', pass);
    const through = await playerGet(tourID, { access: `${grant} ${pass}` });
    expect(through.leadGate?.open).toBe(true);
    expect(through.clips.length).toBeGreaterThan(beforeGate.clips.length);
    keepSignatures(through, 'through the gate');

    // The visit beacon carries the grant in its body.
    await post(
      `${t.url}/tour-visit`,
      JSON.stringify({ tourId: tourID, visitorId: 'visitor-log-0001', access: `${grant} ${pass}` }),
      { from: visitor },
    );

    // An audience link: the buyer opens its page (the URL is the link), and the player asks with the token in a header.
    const made = await t.gql(LINK_CREATE, { input: { tourId: tourID, label: 'Buyers' } }, owner.token);
    expect(made.errors).toBeUndefined();
    const link = made.data.audienceLinkCreate;
    keep('audience link token', link.token);
    await fetch(link.url);
    const viaLink = await playerGet(tourID, { access: grant, link: link.token });
    expect(viaLink.clips.length).toBeGreaterThan(0);
    keepSignatures(viaLink, 'through the link');

    // An older client still puts everything in URLs: the GET's variables, the socket's query.
    const oldGet = await fetch(
      `${t.url}/query?${new URLSearchParams({
        query: PLAYER_TOUR_ACCESS_QUERY,
        variables: JSON.stringify({ tourID, access: `${grant} ${pass}` }),
      })}`,
    );
    expect(oldGet.status).toBe(200);
    await fetch(
      `${t.url}/query?${new URLSearchParams({
        query: PLAYER_TOUR_LINK_QUERY,
        variables: JSON.stringify({ tourID, access: grant, link: link.token }),
      })}`,
    );
    const oldWaiter = connect(
      wsUrl(t.url, { tourId: tourID, lead: tourLead.id, token: waiting.waitToken }),
      {},
      visitor,
    );
    sockets.push(oldWaiter);
    await oldWaiter.next((m) => m.type === 'roomwalk_gate_open', 'the pass, old style');
    await fetch(`${t.url}/playerext?tourId=${tourID}&link=${link.token}&access=${encodeURIComponent(grant)}`);

    // Everything reached the log (the last request is there), and nothing that opens anything is.
    await vi.waitFor(() => expect(raw.join('\n')).toContain('/playerext?tourId='), { timeout: 5000, interval: 20 });
    const log = raw.join('\n');
    const found: string[] = [];
    for (const [value, what] of handled) {
      // The secret part of a signed token is its last dot-separated part (its MAC); the whole value too.
      const parts = [value, value.split('.').at(-1)!];
      for (const p of parts)
        for (const form of [p, encodeURIComponent(p), encodeURIComponent(encodeURIComponent(p))])
          if (form.length >= 16 && log.includes(form)) found.push(`${what}: ${form.slice(0, 12)}…`);
    }
    expect(found).toEqual([]);
    // Capabilities were handled at all (the test would prove nothing otherwise).
    expect([...handled.values()]).toEqual(
      expect.arrayContaining([
        'password grant',
        'wait credential',
        'mailed approval token',
        'gate pass',
        'audience link token',
        'before the gate media signature',
      ]),
    );
  });
});
