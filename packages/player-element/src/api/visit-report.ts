/**
 * The visit report (rooms), in the lazily loaded visit chunk (`tour-player-visit.js`,
 * loaded on idle by `visit-beacon.ts`): the external player reports one visitor's visit to `POST ${api}/tour-visit`
 * with an anonymous visitor id; the server counts one view per visitor per tour per 30 minutes. Sent with
 * `navigator.sendBeacon` as a `text/plain` JSON string (no CORS preflight from a listing site's page; delivered even
 * while the page unloads), falling back to `fetch(keepalive)`. The report on hide or unload carries the rooms walked
 * (room-tracker.ts). A lead form asks for the visit with a `tour-visit-flush` event: the report is sent at once and the
 * event's detail gets the visitor id (so the lead shows its rooms) and the promise of the send.
 *
 * Cookie choice: the id is kept in localStorage (`roomwalk.visitorId`) unless cookies were declined (`cookieConsent` is
 * `false`, or the page's URL has `?disableCookies=true`); then a fresh id is made for this player and kept nowhere
 * (and a stored one is removed), so the visit is still counted but nothing follows the browser across visits.
 */
import { grantFor } from './access-grant.js';
import { VISIT_BEACON_LIMITS } from '@roomwalk/shared/constants';
import {
  VISITOR_ID_KEY,
  newVisitorId,
  safeLocalStorage,
  visitorId,
  type WebStorage,
} from '@roomwalk/shared/guarded-storage';
import type { VisitBeacon } from '@roomwalk/shared/schemas/visit-beacon';
import { RoomTracker } from './room-tracker.js';
import { VISIT_FLUSH_EVENT, type VisitFlushDetail } from './visit-flush.js';

export { VISITOR_ID_KEY };
export const CONSENT_KEY = 'cookieConsent';
const VISIT_PATH = '/tour-visit';

/** Sends a body; `now` asks for a fetch whose promise says when the server has it (a lead form waits on it). */
type Send = (url: string, body: string, now?: boolean) => unknown;

/** True when the visitor declined cookies (the console's choice, or ?disableCookies=true on the page). */
function cookiesDeclined(
  search: string = globalThis.location?.search ?? '',
  store: WebStorage = safeLocalStorage(),
): boolean {
  return new URLSearchParams(search).get('disableCookies') === 'true' || store.getItem(CONSENT_KEY) === 'false';
}

/** The anonymous visitor id: kept across visits (in the page's guarded store) unless cookies were declined. */
function visitorIdFor(declined: boolean, store: WebStorage = safeLocalStorage()): string {
  if (declined) {
    store.removeItem(VISITOR_ID_KEY);
    return newVisitorId();
  }
  const existing = store.getItem(VISITOR_ID_KEY);
  if (existing && !/^[A-Za-z0-9_-]{8,64}$/.test(existing)) store.removeItem(VISITOR_ID_KEY);
  return visitorId(store);
}

const defaultSend: Send = (url, body, now) => {
  try {
    if (
      !now &&
      typeof navigator !== 'undefined' &&
      typeof navigator.sendBeacon === 'function' &&
      navigator.sendBeacon(url, body)
    )
      return;
  } catch {
    // fall through to fetch
  }
  return fetch(url, {
    method: 'POST',
    body,
    keepalive: true,
    mode: 'no-cors',
    credentials: 'omit',
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
  }).catch(() => undefined);
};

/**
 * One visit of one player: `start()` when the tour loads; `end()` (page hidden or player removed) reports time and
 * rooms.
 */
export class VisitReport {
  readonly visitorId: string;
  #startedAt = 0;
  #sentEnd = false;
  #rooms: RoomTracker | undefined;
  #onHide = () => {
    if (document.visibilityState === 'hidden') this.end();
  };

  /** The audience link the tour was opened through ('' for none): every beacon names it. */
  audienceLink = '';

  constructor(
    private readonly api: string,
    private readonly tourId: string,
    private readonly roomsReached: () => number = () => 0,
    private readonly send: Send = defaultSend,
    declined: boolean = cookiesDeclined(),
    /** When the visit began (the tour loaded), if before this report was made. */
    private readonly startedAt: number = Date.now(),
    /** Whether to track rooms (the tests of the plain beacon leave it out). */
    private readonly trackRooms = true,
  ) {
    this.visitorId = visitorIdFor(declined);
  }

  start(): void {
    this.#startedAt = this.startedAt;
    this.#post(0);
    if (this.trackRooms && typeof document !== 'undefined') this.#rooms = new RoomTracker(this.tourId, this.#startedAt);
    if (typeof document !== 'undefined') {
      document.addEventListener('visibilitychange', this.#onHide);
      document.addEventListener(VISIT_FLUSH_EVENT, this.#onFlush, true);
    }
    globalThis.addEventListener?.('pagehide', this.#onPageHide);
  }

  /** Reports the visit's seconds and rooms so far (once per hide; a page shown again reports again when hidden). */
  end(): void {
    if (this.#sentEnd || !this.#startedAt) return;
    this.#sentEnd = true;
    this.#rooms?.pause();
    this.#post(this.#seconds());
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', this.#onShow);
  }

  stop(): void {
    this.end();
    this.#rooms?.stop();
    if (typeof document !== 'undefined') {
      document.removeEventListener('visibilitychange', this.#onHide);
      document.removeEventListener('visibilitychange', this.#onShow);
      document.removeEventListener(VISIT_FLUSH_EVENT, this.#onFlush, true);
    }
    globalThis.removeEventListener?.('pagehide', this.#onPageHide);
  }

  /** Sends the visit so far at once (a lead is about to be sent); resolves when the server has it. */
  flush(): Promise<unknown> {
    return Promise.resolve(this.#post(this.#seconds(), true));
  }

  #seconds(): number {
    return Math.min(VISIT_BEACON_LIMITS.secondsMax, Math.round((Date.now() - this.#startedAt) / 1000));
  }

  #onPageHide = () => this.end();
  #onShow = () => {
    if (document.visibilityState !== 'visible') return;
    this.#sentEnd = false;
    this.#rooms?.resume();
  };
  #onFlush = (e: Event) => {
    const path = e.composedPath() as Array<{ localName?: string; tourId?: string }>;
    const player = path.find((n) => n.localName === 'tour-player');
    if (player && player.tourId !== this.tourId) return;
    const detail = (e as CustomEvent<VisitFlushDetail>).detail;
    if (!detail || detail.visitorId) return;
    detail.visitorId = this.visitorId;
    detail.done = this.flush();
  };

  #post(secondsSpent: number, now = false): unknown {
    const body: VisitBeacon = {
      tourId: this.tourId,
      visitorId: this.visitorId,
      secondsSpent,
      roomsReached: Math.max(0, Math.min(VISIT_BEACON_LIMITS.roomsReachedMax, Math.floor(this.roomsReached()))),
      ...this.#rooms?.report(),
    };
    // A password tour counts the visit only with this session's grant.
    const access = grantFor(this.tourId);
    if (access) body.access = access;
    if (this.audienceLink) body.link = this.audienceLink;
    return this.send(`${this.api.replace(/\/$/, '')}${VISIT_PATH}`, JSON.stringify(body), now);
  }
}
