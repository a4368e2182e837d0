/**
 * The visit beacon (issue 15 item 8): the external player reports one visit per load to the API's /tour-visit. On the
 * real server's tours; the beacons are read as the browser sent them (request log of the test runner) together with
 * the real server's answer.
 */
import { expect } from '@esm-bundle/chai';
import { executeServerCommand } from '@web/test-runner-commands';
import '../tour-player/tour-player.js';
import { cleanup, firstEvent, makePlayer, real, server, until } from '../../test/helpers.js';
import { CONSENT_KEY, VISITOR_ID_KEY, VisitBeacon, type VisitBody } from './visit-beacon.js';

interface Logged {
  url: string;
  method: string;
  body: string;
  contentType: string | null;
  status: number | null;
}
/** The beacons the page sent to the real server's /tour-visit since the test began. */
const visits = async (): Promise<Logged[]> => ((await executeServerCommand('requests-detail')) as Logged[]).filter((r) => r.url === `${server}/tour-visit`);
/** Beacons about one tour (a player removed by an earlier test may still send its end beacon). */
const bodies = async (tourId: string): Promise<VisitBody[]> => (await visits()).map((v) => JSON.parse(v.body) as VisitBody).filter((b) => b.tourId === tourId);

describe('visit beacon', () => {
  beforeEach(async () => {
    await executeServerCommand('requests-start');
    localStorage.removeItem(VISITOR_ID_KEY);
    localStorage.removeItem(CONSENT_KEY);
  });
  afterEach(() => {
    cleanup();
    localStorage.removeItem(CONSENT_KEY);
  });

  it('the external player sends one text/plain beacon per load with the visitor id it keeps; preview sends none', async () => {
    const preview = await makePlayer({ 'tour-id': real.other, api: server, mode: 'preview' });
    await firstEvent(preview, 'tour-ready');
    cleanup();
    const p = await makePlayer({ 'tour-id': real.main, api: server });
    await firstEvent(p, 'tour-ready');
    const [first] = (await until(async () => ((await visits()).some((v) => v.body.includes(real.main)) ? (await visits()).filter((v) => v.body.includes(real.main)) : null), 'the first beacon'))!;
    expect(first!.method).to.equal('POST');
    expect(first!.contentType).to.match(/^text\/plain/);
    // The real server took it.
    await until(async () => (await visits()).find((v) => v.body === first!.body)?.status, "the server's answer");
    expect((await visits()).find((v) => v.body === first!.body)!.status).to.be.within(200, 299);
    const body = JSON.parse(first!.body) as VisitBody;
    expect(body).to.deep.include({ tourId: real.main, secondsSpent: 0 });
    expect(body.visitorId).to.match(/^[A-Za-z0-9_-]{8,64}$/);
    expect(localStorage.getItem(VISITOR_ID_KEY)).to.equal(body.visitorId);
    cleanup();
    const again = await makePlayer({ 'tour-id': real.main, api: server });
    await firstEvent(again, 'tour-ready');
    // Start and end beacons of both loads: one kept id (the server counts them as one visit).
    const all = (await until(async () => ((await bodies(real.main)).length >= 3 ? bodies(real.main) : null), "the second load's beacon"))!;
    expect([...new Set(all.map((b) => b.visitorId))]).to.deep.equal([body.visitorId]);
    // The preview player sent nothing (its tour appears in no beacon).
    expect(await bodies(real.other)).to.deep.equal([]);
  });

  it('with cookies declined it still reports the visit but keeps no visitor id across loads', async () => {
    localStorage.setItem(VISITOR_ID_KEY, 'stored-visitor-id');
    localStorage.setItem(CONSENT_KEY, 'false');
    for (let i = 0; i < 2; i++) {
      const p = await makePlayer({ 'tour-id': real.other, api: server });
      await firstEvent(p, 'tour-ready');
      cleanup();
    }
    // Two loads, each a start and an end beacon: two ids, one per load.
    const all = (await until(async () => ((await bodies(real.other)).length >= 4 ? bodies(real.other) : null), 'four beacons'))!;
    expect(new Set(all.map((b) => b.visitorId)).size).to.equal(2);
    expect(all.map((b) => b.visitorId)).to.not.include('stored-visitor-id');
    expect(localStorage.getItem(VISITOR_ID_KEY)).to.equal(null);
  });

  it('reports the seconds spent and rooms reached when the visit ends', () => {
    const sent: Array<[string, VisitBody]> = [];
    const b = new VisitBeacon(
      'https://api.example/',
      'tour_x',
      () => 2,
      (url, body) => sent.push([url, JSON.parse(body) as VisitBody]),
      false,
    );
    b.start();
    b.stop();
    b.stop();
    expect(sent.map(([url]) => url)).to.deep.equal(['https://api.example/tour-visit', 'https://api.example/tour-visit']);
    expect(sent[1]![1]).to.deep.include({ tourId: 'tour_x', roomsReached: 2 });
    expect(sent[1]![1].secondsSpent).to.be.at.least(0);
  });
});
