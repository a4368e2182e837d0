/**
 * The visit beacon (issue 15 item 8): the external player reports one visitor's visit to `POST ${api}/tour-visit` with
 * an anonymous visitor id; the server counts one view per visitor per tour per 30 minutes. Sent with
 * `navigator.sendBeacon` as a `text/plain` JSON string (no CORS preflight from a listing site's page; delivered even
 * while the page unloads), falling back to `fetch(keepalive)`.
 *
 * Cookie choice: the id is kept in localStorage (`roomwalk.visitorId`) unless cookies were declined (`cookieConsent` is
 * `false`, or the page's URL has `?disableCookies=true`); then a fresh id is made for this player and kept nowhere
 * (and a stored one is removed), so the visit is still counted but nothing follows the browser across visits.
 */
import { VISITOR_ID_KEY, newVisitorId, safeLocalStorage, visitorId, type WebStorage } from '@roomwalk/shared/guarded-storage';

export { VISITOR_ID_KEY };
export const CONSENT_KEY = 'cookieConsent';
const VISIT_PATH = '/tour-visit';

export interface VisitBody {
  tourId: string;
  visitorId: string;
  secondsSpent: number;
  roomsReached: number;
}

type Send = (url: string, body: string) => void;

/** True when the visitor declined cookies (the console's choice, or ?disableCookies=true on the page). */
function cookiesDeclined(search: string = globalThis.location?.search ?? '', store: WebStorage = safeLocalStorage()): boolean {
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

const defaultSend: Send = (url, body) => {
  try {
    if (typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url, body)) return;
  } catch {
    // fall through to fetch
  }
  void fetch(url, { method: 'POST', body, keepalive: true, mode: 'no-cors', credentials: 'omit', headers: { 'content-type': 'text/plain;charset=UTF-8' } }).catch(() => undefined);
};

/** One visit of one player: `start()` when the tour loads; `end()` (page hidden or player removed) reports time and rooms. */
export class VisitBeacon {
  readonly visitorId: string;
  #startedAt = 0;
  #sentEnd = false;
  #onHide = () => {
    if (document.visibilityState === 'hidden') this.end();
  };

  constructor(
    private readonly api: string,
    private readonly tourId: string,
    private readonly roomsReached: () => number = () => 0,
    private readonly send: Send = defaultSend,
    declined: boolean = cookiesDeclined(),
  ) {
    this.visitorId = visitorIdFor(declined);
  }

  start(): void {
    this.#startedAt = Date.now();
    this.#post(0);
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', this.#onHide);
    globalThis.addEventListener?.('pagehide', this.#onPageHide);
  }

  /** Reports the visit's seconds and rooms so far (once per hide; a page shown again reports again when hidden). */
  end(): void {
    if (this.#sentEnd || !this.#startedAt) return;
    this.#sentEnd = true;
    this.#post(Math.min(21_600, Math.round((Date.now() - this.#startedAt) / 1000)));
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', this.#onShow);
  }

  stop(): void {
    this.end();
    if (typeof document !== 'undefined') {
      document.removeEventListener('visibilitychange', this.#onHide);
      document.removeEventListener('visibilitychange', this.#onShow);
    }
    globalThis.removeEventListener?.('pagehide', this.#onPageHide);
  }

  #onPageHide = () => this.end();
  #onShow = () => {
    if (document.visibilityState === 'visible') this.#sentEnd = false;
  };

  #post(secondsSpent: number): void {
    const body: VisitBody = { tourId: this.tourId, visitorId: this.visitorId, secondsSpent, roomsReached: Math.max(0, Math.min(500, Math.floor(this.roomsReached()))) };
    this.send(`${this.api.replace(/\/$/, '')}${VISIT_PATH}`, JSON.stringify(body));
  }
}
