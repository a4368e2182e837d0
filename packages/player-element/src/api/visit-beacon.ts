/**
 * The visit beacon's stand-in in the main bundle (rooms): the tour loader starts it when an
 * external player loads a tour; it loads the visit report (visit-report.ts: visitor id and cookie choice, the beacons,
 * room tracking) from its own chunk when the page is next idle (or at once when the player goes first), and hands it
 * the moment the visit began, so no time is lost.
 *
 * A visit that ends (page hidden or left) before that chunk has loaded is still counted, since short visits are what
 * other products miss: a minimal beacon with the seconds and a one-time visitor id goes at once (as when cookies are
 * declined: counted, followed nowhere), and this player reports nothing more, so the visit is not counted twice.
 */
import type { VisitBeacon as VisitBeaconBody } from '@roomwalk/shared/schemas/visit-beacon';
import { grantFor } from './access-grant.js';
import { loadVisitReport } from './load-visit-report.js';
import type { VisitReport } from './visit-report.js';

export class VisitBeacon {
  #report: Promise<VisitReport> | undefined;
  #at = 0;
  #early = false;
  #onHide = (e: Event) => {
    if (this.#report || this.#early || (e.type !== 'pagehide' && document.visibilityState !== 'hidden')) return;
    this.#early = true;
    const body: VisitBeaconBody = {
      tourId: this.tourId,
      visitorId: `v${Math.random().toString(36).slice(2)}${this.#at.toString(36)}`,
      secondsSpent: Math.round((Date.now() - this.#at) / 1000),
      roomsReached: 0,
    };
    const access = grantFor(this.tourId);
    if (access) body.access = access;
    if (this.link) body.link = this.link;
    navigator.sendBeacon?.(`${this.api}/tour-visit`, JSON.stringify(body));
  };

  constructor(
    private readonly api: string,
    private readonly tourId: string,
    private readonly roomsReached: () => number = () => 0,
    /** The audience link the tour was opened through ('' for none): the visit is counted under it. */
    private readonly link = '',
  ) {}

  start(): void {
    this.#at = Date.now();
    const load = () => void this.#load();
    if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 });
    else setTimeout(load, 50);
    document.addEventListener('visibilitychange', this.#onHide);
    addEventListener('pagehide', this.#onHide);
  }

  stop(): void {
    document.removeEventListener('visibilitychange', this.#onHide);
    removeEventListener('pagehide', this.#onHide);
    if (this.#at && !this.#early) void this.#load().then((r) => r.stop());
  }

  #load(): Promise<VisitReport> {
    if (this.#early) return new Promise(() => undefined);
    this.#report ??= loadVisitReport().then((m) => {
      const r = new m.VisitReport(this.api, this.tourId, this.roomsReached, undefined, undefined, this.#at);
      r.audienceLink = this.link;
      r.start();
      return r;
    });
    return this.#report;
  }
}
