/**
 * A tour through an audience link on the real server: the link hides Kitchen (frames 40–99 of the `other` tour, five
 * clips of 36 frames), so clips 1 and 2 (frames 36–107) are never asked for, the drawer lists Entrance and Bedroom
 * only, and the slider runs over the 108 frames left. A revoked link shows the company's message, nothing of the tour.
 */
import { expect } from '@esm-bundle/chai';
import { executeServerCommand } from '@web/test-runner-commands';
import './tour-player.js';
import {
  cleanup,
  firstEvent,
  makePlayer,
  ownerGql,
  real,
  server,
  serverClips,
  serverMarkers,
  shadowText,
  until,
} from '../../test/helpers.js';
import type { TourPlayer } from './tour-player.js';

const CREATE = 'mutation($input: AudienceLinkCreateInput!) { audienceLinkCreate(input: $input) { id token } }';
const REVOKE = 'mutation($id: ID!) { audienceLinkRevoke(id: $id) { status } }';
const VISITS = 'query($id: ID!) { audienceLinks(tourId: $id) { id visits } }';
const requested = async () => (await executeServerCommand('requests')) as string[];
const pathOf = (url: string) => new URL(url).pathname;

describe('audience link: hidden rooms', () => {
  let link: { id: string; token: string };
  let hiddenClips: string[];
  let keptClips: string[];

  before(async () => {
    const kitchen = (await serverMarkers(real.other)).find((m) => m.name === 'Kitchen')!;
    link = (
      await ownerGql<{ audienceLinkCreate: { id: string; token: string } }>(CREATE, {
        input: { tourId: real.other, label: 'Open day', hiddenMarkerIds: [kitchen.id] },
      })
    ).data.audienceLinkCreate;
    const clips = await serverClips(real.other);
    hiddenClips = clips
      .filter((c) => c.index === 1 || c.index === 2)
      .flatMap((c) => [pathOf(c.highURI), pathOf(c.lowURI)]);
    keptClips = clips.filter((c) => c.index !== 1 && c.index !== 2).map((c) => pathOf(c.lowURI));
  });
  afterEach(() => cleanup());

  it('plays the visible frames only: hidden frames never fetched, the drawer without the hidden room', async function () {
    this.timeout(120_000);
    // A new visitor: an earlier file's visit of this tour by the same browser (its visitor id) would be extended by
    // this beacon rather than opened under the link (a visit lasts 30 minutes across the tour's links).
    localStorage.removeItem('roomwalk.visitorId');
    await executeServerCommand('requests-start');
    const p: TourPlayer = await makePlayer({
      'tour-id': real.other,
      api: server,
      loading: 'eager',
      'audience-link': link.token,
    });
    await firstEvent(p, 'tour-ready', 90_000);
    // 3 clips of 36 frames left: frames 0–107 of the link.
    expect(p.totalFrames).to.equal(107);
    expect(p.tour!.markers.map((m) => [m.name, m.frameIndex])).to.deep.equal([
      ['Entrance', 0],
      ['Bedroom', 36],
    ]);
    // Scrub across the whole link, over the gap where Kitchen was, to the last frame.
    for (const f of [35, 36, 60, 107]) await p.goToFrame(f);
    await p.goToMarker('Bedroom');
    const canvas = p.shadowRoot!.querySelector('canvas')!;
    expect(canvas.getAttribute('aria-valuemax')).to.equal('107');
    const drawerText = shadowText(p.shadowRoot!.querySelector('tour-markers-drawer') ?? p);
    expect(drawerText).to.contain('Bedroom');
    expect(drawerText).not.to.contain('Kitchen');
    expect(shadowText(p)).not.to.contain('Kitchen');

    const media = (await requested()).filter((u) => u.includes('/media/')).map(pathOf);
    for (const kept of keptClips) expect(media, `kept clip ${kept}`).to.include(kept);
    for (const hidden of hiddenClips) expect(media, `hidden clip ${hidden}`).not.to.include(hidden);
    // The poster may show the hidden room: the link has none.
    expect(p.tour!.thumbnailURL ?? null).to.equal(null);
    // The visit is counted under the link.
    await until(
      async () =>
        ((
          await ownerGql<{ audienceLinks: Array<{ id: string; visits: number }> }>(VISITS, { id: real.other })
        ).data.audienceLinks.find((l) => l.id === link.id)?.visits ?? 0) > 0,
      'the visit counted under the link',
      20_000,
    );
  });

  it("a revoked link shows the company's message and the agent's contact, nothing of the tour", async () => {
    await ownerGql(REVOKE, { id: link.id });
    await executeServerCommand('requests-start');
    const p = await makePlayer({ 'tour-id': real.other, api: server, loading: 'eager', 'audience-link': link.token });
    const gate = (await until(() => p.shadowRoot!.querySelector<HTMLElement>('[part="gate-card"]'), 'the message'))!;
    expect(gate.dataset.kind).to.equal('unavailable');
    const text = shadowText(p);
    expect(text).to.contain('This tour is no longer available.');
    expect(text).to.contain('Contact');
    expect(gate.querySelector('a[href^="mailto:"]'), "the agent's address").to.exist;
    for (const secret of ['Seaside Villa', 'Kitchen', 'Entrance', 'Bedroom']) expect(text).not.to.contain(secret);
    expect((await requested()).filter((u) => u.includes('/media/'))).to.deep.equal([]);
  });
});
