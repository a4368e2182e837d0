/**
 * Live viewing through an audience link that hides rooms: the agent's scrolls reach the visitor in the link's frames
 * (a hidden stretch as the next room the link shows), the visitor's reach the agent in the tour's, and a visitor whose
 * link no longer opens is not let in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { seedProcessedTour } from './fixtures/tours.js';
import { connect, createLead, wsUrl, type LiveClient } from './fixtures/live-helpers.js';
import { CLOSE_CODES } from '../src/http/tour-viewer-ws.js';

const CREATE = 'mutation($input: AudienceLinkCreateInput!) { audienceLinkCreate(input: $input) { id token } }';
const REVOKE = 'mutation($id: ID!) { audienceLinkRevoke(id: $id) { id } }';
const MARKER_SAVE = 'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }';
const welcome = (c: LiveClient) => c.next((m) => m.type === 'roomwalk_welcome', 'welcome');
const scroll = (c: LiveClient, frameIndex: number, tourId: string) =>
  c.send({ type: 'roomwalk_scrolling', tourId, data: { frameIndex } });

describe.each(DB_KINDS)('live viewing through an audience link (%s)', (kind) => {
  let t: TestApp;
  let agent: SeededUser;
  let tourId: string;
  let hidesStudy: { id: string; token: string };
  const open: LiveClient[] = [];
  const client = (q: Record<string, string>) => {
    const c = connect(wsUrl(t.url, q));
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await startTestApp(kind, { ICE_SERVERS: '[]', RATE_LIMIT_DISABLED: true });
    agent = await seedUser(t.app, { plan: 'pro' });
    // Four clips of 36 frames: 0–35, 36–71, 72–107, 108–143.
    tourId = (await seedProcessedTour(t, agent, 4)).id;
    const ids: Record<string, string> = {};
    for (const [name, frameIndex] of [
      ['Hall', 10],
      ['Study', 40],
      ['Kitchen', 80],
    ] as const)
      ids[name] = (await t.gql(MARKER_SAVE, { input: { tourId, name, frameIndex } }, agent.token)).data.markerSave.id;
    // Hiding the Study (frames 40–79) takes clips 1 and 2: the link shows tour frames 0–35 and 108–143 as 0–71.
    const r = await t.gql(CREATE, { input: { tourId, label: 'Buyers', hiddenMarkerIds: [ids.Study] } }, agent.token);
    expect(r.errors).toBeUndefined();
    hidesStudy = r.data.audienceLinkCreate;
  });
  afterAll(async () => {
    for (const c of open) c.close();
    await t?.stop();
  });

  it("moves scrolls between the agent's frames and the visitor's link frames, both ways", async () => {
    const lead = await createLead(t, tourId);
    const viewer = client({ tourId, token: lead.token, link: hidesStudy.token });
    await welcome(viewer);
    const host = client({ tourId, session: lead.session, token: agent.token });
    const hw = await welcome(host);
    await viewer.next((m) => m.type === 'roomwalk_peer_joined' && m.peer.peerId === hw.peerId, 'host joined');

    // Tour frame 120.5 is the link's 36 + 12.5.
    scroll(host, 120.5, tourId);
    expect((await viewer.next((m) => m.type === 'roomwalk_scrolling', 'scroll')).data).toEqual({ frameIndex: 48.5 });
    // The agent in the Study (hidden): the visitor waits where the link goes on, the Kitchen's first shown frame.
    scroll(host, 50, tourId);
    expect(
      (await viewer.next((m) => m.type === 'roomwalk_scrolling' && m.data.frameIndex !== 48.5, 'hidden scroll')).data,
    ).toEqual({ frameIndex: 36 });
    // The visitor's frame 40 is the tour's 112.
    scroll(viewer, 40, tourId);
    expect((await host.next((m) => m.type === 'roomwalk_scrolling', 'scroll back')).data).toEqual({ frameIndex: 112 });
  });

  it('a visitor without a link gets the frames as sent', async () => {
    const lead = await createLead(t, tourId);
    const viewer = client({ tourId, token: lead.token });
    await welcome(viewer);
    const host = client({ tourId, session: lead.session, token: agent.token });
    const hw = await welcome(host);
    await viewer.next((m) => m.type === 'roomwalk_peer_joined' && m.peer.peerId === hw.peerId, 'host joined');
    scroll(host, 50, tourId);
    expect((await viewer.next((m) => m.type === 'roomwalk_scrolling', 'scroll')).data).toEqual({ frameIndex: 50 });
  });

  it('refuses a visitor whose link was revoked or never existed', async () => {
    const lead = await createLead(t, tourId);
    const unknown = client({ tourId, token: lead.token, link: 'x'.repeat(32) });
    expect((await unknown.closed).code).toBe(CLOSE_CODES.forbidden);
    await t.gql(REVOKE, { id: hidesStudy.id }, agent.token);
    const revoked = client({ tourId, token: lead.token, link: hidesStudy.token });
    expect((await revoked.closed).code).toBe(CLOSE_CODES.forbidden);
  });
});
