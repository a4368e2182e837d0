/**
 * The visit beacon's stand-in in the main bundle (issue 15 item 8; rooms, issue 21): the tour loader starts it when an
 * external player loads a tour; it loads the visit report (visit-report.ts: visitor id and cookie choice, the beacons,
 * room tracking) from its own chunk when the page is next idle (or at once when the player goes first), and hands it
 * the moment the visit began, so no time is lost.
 */
import { loadVisitReport } from './load-visit-report.js';
import type { VisitReport } from './visit-report.js';

export class VisitBeacon {
  #report: Promise<VisitReport> | undefined;
  #at = 0;

  constructor(
    private readonly api: string,
    private readonly tourId: string,
    private readonly roomsReached: () => number = () => 0,
  ) {}

  start(): void {
    this.#at = Date.now();
    const load = () => void this.#load();
    if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 });
    else setTimeout(load, 50);
  }

  stop(): void {
    if (this.#at) void this.#load().then((r) => r.stop());
  }

  #load(): Promise<VisitReport> {
    this.#report ??= loadVisitReport().then((m) => {
      const r = new m.VisitReport(this.api, this.tourId, this.roomsReached, undefined, undefined, this.#at);
      r.start();
      return r;
    });
    return this.#report;
  }
}
