/**
 * Room tracking for the visit report, in the lazily loaded visit chunk: the time a visitor spends in each
 * room (the marker region the playhead is in, from one marker's frame to the next; '' before the first marker, which
 * the server shows as "Entrance"), in the order walked, the fast travels, whether the visit reached the tour's end and
 * the device class. It listens on the document to the player's own events (`tour-room-change`, `tour-status-change`,
 * `tour-frame-change`, composed and bubbling) from the `<tour-player>` showing this tour, so it needs no hook in the
 * player's controllers. Time while the page is hidden does not count (`pause()` / `resume()` from the visit report).
 */
import { VISIT_BEACON_LIMITS, type DeviceClass } from '@roomwalk/shared/constants';
import type { VisitBeacon } from '@roomwalk/shared/schemas/visit-beacon';

/** The room part of the visit beacon (the shared contract). */
export type RoomFields = Required<Pick<VisitBeacon, 'segments' | 'fastTravels' | 'reachedEnd' | 'device'>>;
const MAX_SEGMENTS = VISIT_BEACON_LIMITS.segmentsMax;
const MAX_NAME = VISIT_BEACON_LIMITS.roomNameMax;

interface PlayerLike extends HTMLElement {
  tourId?: string;
  currentRoom?: { name: string } | null;
  currentFrame?: number;
  totalFrames?: number;
  playerStatus?: string;
}

/** Phone, tablet or desktop: a coarse pointer on a small screen is a phone, on a larger one a tablet. */
function deviceClass(w: Pick<Window, 'matchMedia' | 'screen'> = globalThis as unknown as Window): DeviceClass {
  const coarse = !!w.matchMedia?.('(pointer: coarse)').matches;
  if (!coarse) return 'desktop';
  return Math.min(w.screen?.width ?? 0, w.screen?.height ?? 0) < 600 ? 'phone' : 'tablet';
}

export class RoomTracker {
  #segments: Array<{ room: string; ms: number }> = [];
  #room: string;
  /** When the current segment began; null while paused. */
  #since: number | null;
  #fastTravels = 0;
  #reachedEnd = false;
  #el: PlayerLike | null = null;
  /** The player's status last seen: a status event that changes it is not a fast travel starting. */
  #status: string | undefined;
  readonly #device: DeviceClass;
  readonly #types = ['tour-room-change', 'tour-status-change', 'tour-frame-change'] as const;

  constructor(
    private readonly tourId: string,
    startedAt: number = Date.now(),
    private readonly doc: Document = document,
    private readonly now: () => number = Date.now,
  ) {
    this.#device = deviceClass();
    this.#el = [...doc.querySelectorAll<PlayerLike>('tour-player')].find((p) => p.tourId === tourId) ?? null;
    this.#room = this.#roomOf(this.#el);
    this.#status = this.#el?.playerStatus;
    this.#since = startedAt;
    this.#checkEnd();
    for (const t of this.#types) doc.addEventListener(t, this.#onEvent, true);
  }

  stop(): void {
    for (const t of this.#types) this.doc.removeEventListener(t, this.#onEvent, true);
  }

  /** The visit so far (the current room counted up to now). */
  report(): RoomFields {
    this.#checkEnd();
    const all = [...this.#segments];
    if (this.#since !== null) this.#push(all, this.#room, this.now() - this.#since);
    const segments = all
      .map((s) => ({ room: s.room, seconds: Math.round(s.ms / 1000) }))
      .filter((s, i, a) => s.seconds > 0 || i === a.length - 1);
    return { segments, fastTravels: this.#fastTravels, reachedEnd: this.#reachedEnd, device: this.#device };
  }

  /** The page is hidden: the current room's time stops. */
  pause(): void {
    if (this.#since === null) return;
    this.#push(this.#segments, this.#room, this.now() - this.#since);
    this.#since = null;
  }

  /** The page is shown again: time counts again in the room the player is in. */
  resume(): void {
    if (this.#since === null) this.#since = this.now();
  }

  #onEvent = (e: Event): void => {
    const el = (e.composedPath() as PlayerLike[]).find((n) => n.localName === 'tour-player');
    if (!el || el.tourId !== this.tourId || (this.#el && el !== this.#el)) return;
    this.#el = el;
    const detail = (e as CustomEvent).detail as { room?: string | null; travel?: string; status?: string };
    if (e.type === 'tour-room-change') this.#enter(detail.room ?? '');
    if (e.type === 'tour-status-change') {
      // The playhead announces each fast travel with the status unchanged and a direction; a status change (loading,
      // ready, error) repeats the travel of the moment and is not a new one.
      const same = this.#status === undefined || this.#status === detail.status;
      this.#status = detail.status;
      if (same && detail.travel && detail.travel !== 'idle') this.#fastTravels++;
    }
    this.#checkEnd();
  };

  #enter(room: string): void {
    const name = room.trim().slice(0, MAX_NAME);
    if (name === this.#room) return;
    if (this.#since !== null) {
      const t = this.now();
      this.#push(this.#segments, this.#room, t - this.#since);
      this.#since = t;
    }
    this.#room = name;
  }

  /**
   * Adds time to the list: to the last segment when it is the same room; past the limit, to that room's last segment.
   */
  #push(list: Array<{ room: string; ms: number }>, room: string, ms: number): void {
    const last = list.at(-1);
    if (last?.room === room) list[list.length - 1] = { room, ms: last.ms + ms };
    else if (list.length < MAX_SEGMENTS) list.push({ room, ms });
    else {
      const i = list.map((s) => s.room).lastIndexOf(room);
      const at = i >= 0 ? i : list.length - 1;
      list[at] = { room: list[at]!.room, ms: list[at]!.ms + ms };
    }
  }

  #roomOf(el: PlayerLike | null): string {
    return (el?.currentRoom?.name ?? '').trim().slice(0, MAX_NAME);
  }

  #checkEnd(): void {
    const el = this.#el;
    const total = el?.totalFrames ?? 0;
    if (el && total > 0 && (el.currentFrame ?? 0) + 2 >= total) this.#reachedEnd = true;
  }
}
