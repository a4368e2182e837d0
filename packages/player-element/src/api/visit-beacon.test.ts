/**
 * The visit beacon and its rooms: the external player reports one visit per load to the
 * API's /tour-visit, from the visit chunk loaded on idle. On the real server's tours; the beacons are read as the
 * browser sent them (request log of the test runner) together with the real server's answer.
 */
import { expect } from '@esm-bundle/chai';
import { executeServerCommand } from '@web/test-runner-commands';
import '../tour-player/tour-player.js';
import { cleanup, firstEvent, makePlayer, real, server, until } from '../../test/helpers.js';
import type { TourPlayer } from '../tour-player/tour-player.js';
import { RoomTracker } from './room-tracker.js';
import { VisitBeacon } from './visit-beacon.js';
import { flushVisit } from './visit-flush.js';
import type { VisitBeacon as VisitBody } from '@roomwalk/shared/schemas/visit-beacon';
import { CONSENT_KEY, VISITOR_ID_KEY, VisitReport } from './visit-report.js';

interface Logged {
  url: string;
  method: string;
  body: string;
  contentType: string | null;
  status: number | null;
}
/** The beacons the page sent to the real server's /tour-visit since the test began. */
const visits = async (): Promise<Logged[]> =>
  ((await executeServerCommand('requests-detail')) as Logged[]).filter((r) => r.url === `${server}/tour-visit`);
/** Beacons about one tour (a player removed by an earlier test may still send its end beacon). */
const bodies = async (tourId: string): Promise<VisitBody[]> =>
  (await visits()).map((v) => JSON.parse(v.body) as VisitBody).filter((b) => b.tourId === tourId);

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
    const [first] = (await until(
      async () =>
        (await visits()).some((v) => v.body.includes(real.main))
          ? (await visits()).filter((v) => v.body.includes(real.main))
          : null,
      'the first beacon',
    ))!;
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
    const all = (await until(
      async () => ((await bodies(real.main)).length >= 3 ? bodies(real.main) : null),
      "the second load's beacon",
    ))!;
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
    const all = (await until(
      async () => ((await bodies(real.other)).length >= 4 ? bodies(real.other) : null),
      'four beacons',
    ))!;
    expect(new Set(all.map((b) => b.visitorId)).size).to.equal(2);
    expect(all.map((b) => b.visitorId)).to.not.include('stored-visitor-id');
    expect(localStorage.getItem(VISITOR_ID_KEY)).to.equal(null);
  });

  it('reports the seconds spent and rooms reached when the visit ends', () => {
    const sent: Array<[string, VisitBody]> = [];
    const b = new VisitReport(
      'https://api.example/',
      'tour_x',
      () => 2,
      (url, body) => sent.push([url, JSON.parse(body) as VisitBody]),
      false,
      Date.now(),
      false,
    );
    b.start();
    b.stop();
    b.stop();
    expect(sent.map(([url]) => url)).to.deep.equal([
      'https://api.example/tour-visit',
      'https://api.example/tour-visit',
    ]);
    expect(sent[1]![1]).to.deep.include({ tourId: 'tour_x', roomsReached: 2 });
    expect(sent[1]![1].secondsSpent).to.be.at.least(0);
  });

  it('the end beacon carries the rooms, device and completion, and the real server takes it', async () => {
    const p = await makePlayer({ 'tour-id': real.main, api: server });
    await firstEvent(p, 'tour-ready');
    const markers = [...(p as TourPlayer).tour!.markers].sort((a, b) => a.frameIndex - b.frameIndex);
    // The visit report loads on idle: its start beacon is the sign it listens.
    await until(async () => (await bodies(real.main)).length >= 1, 'the start beacon');
    await (p as TourPlayer).goToMarker(markers.at(-1)!.id);
    cleanup();
    const end = (await until(async () => (await bodies(real.main)).find((b) => b.segments?.length), 'the end beacon'))!;
    expect(end.device).to.equal('desktop');
    expect(end.fastTravels).to.equal(1);
    expect(end.segments!.at(-1)!.room).to.equal(markers.at(-1)!.name);
    const sent = (await visits()).find((v) => v.body.includes('"segments"'))!;
    await until(async () => (await visits()).find((v) => v.body === sent.body)?.status, "the server's answer");
    expect((await visits()).find((v) => v.body === sent.body)!.status).to.equal(204);
  });

  it('counts the seconds in each room in the order walked, fast travels and reaching the end (a set clock)', async () => {
    const p = (await makePlayer({ 'tour-id': real.main, api: server, mode: 'preview' })) as TourPlayer;
    await firstEvent(p, 'tour-ready');
    const [first, second] = [...p.tour!.markers].sort((a, b) => a.frameIndex - b.frameIndex).slice(1);
    let clock = 0;
    const start = p.currentRoom?.name ?? '';
    const t = new RoomTracker(real.main, 0, document, () => clock);
    clock = 10_000;
    await p.goToMarker(first!.id);
    clock = 70_000;
    await p.goToMarker(second!.id);
    clock = 85_000;
    t.pause();
    clock = 500_000; // hidden: not counted
    t.resume();
    clock = 515_000;
    await p.goToMarker(first!.id);
    clock = 520_000;
    let r = t.report();
    expect(r.segments).to.deep.equal([
      { room: start, seconds: 10 },
      { room: first!.name, seconds: 60 },
      { room: second!.name, seconds: 30 },
      { room: first!.name, seconds: 5 },
    ]);
    expect(r.fastTravels).to.equal(3);
    expect(r.reachedEnd).to.equal(false);
    await p.goToFrame(p.totalFrames - 1);
    r = t.report();
    expect(r.reachedEnd).to.equal(true);
    t.stop();
  });

  it('a lead form gets the visitor id and the visit sent at once (tour-visit-flush)', async () => {
    const p = await makePlayer({ 'tour-id': real.main, api: server });
    await firstEvent(p, 'tour-ready');
    await until(async () => (await bodies(real.main)).length >= 1, 'the start beacon');
    const before = (await bodies(real.main)).length;
    const visit = await flushVisit(p);
    expect(visit.visitorId).to.equal(localStorage.getItem(VISITOR_ID_KEY));
    const all = await until(
      async () => ((await bodies(real.main)).length > before ? bodies(real.main) : null),
      'the flushed visit',
    );
    expect(all!.at(-1)).to.deep.include({ visitorId: visit.visitorId });
    expect(all!.at(-1)!.segments).to.be.an('array');
  });

  it('a visit that ends before the visit chunk has loaded is still counted (a one-time visitor id)', async () => {
    const beacon = new VisitBeacon(server, real.other);
    beacon.start();
    // The page is left at once: before the idle callback could load the chunk.
    dispatchEvent(new Event('pagehide'));
    const [early] = (await until(
      async () => ((await bodies(real.other)).length ? bodies(real.other) : null),
      'the early beacon',
    ))!;
    expect(early).to.deep.include({ tourId: real.other, secondsSpent: 0, roomsReached: 0 });
    expect(early!.visitorId).to.match(/^v[A-Za-z0-9]{8,63}$/);
    // Not the kept id: this player reports nothing more, so the visit is not counted twice.
    expect(localStorage.getItem(VISITOR_ID_KEY)).to.equal(null);
    const logged = await until(
      async () => (await visits()).find((v) => v.body.includes(early!.visitorId) && v.status),
      "the server's answer",
    );
    expect(logged!.status).to.be.within(200, 299);
    beacon.stop();
  });
});
