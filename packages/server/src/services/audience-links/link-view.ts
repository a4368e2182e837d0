/**
 * A tour seen through an audience link (docs/access-and-privacy.md), for every public path: the tour query (GraphQL
 * and the player's GET), the visit beacon. An unknown, revoked or expired link (by the server's clock) is refused with
 * AUDIENCE_LINK_UNAVAILABLE and the company's message: its branding and the agent's contact, nothing of the tour. A
 * live link's view leaves out its hidden rooms: their markers, and every clip holding a frame of them (shared
 * VisibleFrames); the clips kept are numbered again and the markers moved into the link's frames, so the player plays
 * the view as any tour and never learns what was taken out. The tour's poster is left out of a view that hides rooms
 * (it may show one of them). A link's own lead gate replaces the tour's on the row it answers.
 */
import { AUDIENCE_LINK_TOKEN, ERROR_CODES, PLAYER_GATE_TEXTS, VisibleFrames } from '@roomwalk/shared';
import { serverNow } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { TourRow } from '../../db/types.js';
import type { AudienceLinkRow } from '../../db/tables/audience-links.js';
import type { Services } from '../services.js';
import type { AuthInfo } from '../../core/auth.js';
import { assertCanView, gateOf } from '../tour-access/tour-access.js';
import { viewPublicTour } from '../tours.js';
import { isLinkLive } from './audience-links.js';
import { gateThroughLink } from '../lead-gate/link-gate.js';

export interface LinkView {
  link: AudienceLinkRow;
  /** null when the link hides no room. */
  frames: VisibleFrames | null;
  hidden: ReadonlySet<string>;
}

const views = new WeakMap<object, LinkView>();

/** The link a tour row was read through (set by viewTour), if any. */
export const linkViewOf = (tour: object): LinkView | undefined => views.get(tour);

function withLinkView<T extends object>(tour: T, view: LinkView): T {
  views.set(tour, view);
  return tour;
}

/** The agent's contact for the "no longer available" message: the tour owner's name, email and phone. */
export async function contactOf(services: Services, tour: Pick<TourRow, 'owner_id'>) {
  const row = await services.db
    .selectFrom('users')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'users.id')
    .select(['users.username', 'user_profiles.name', 'user_profiles.surname', 'user_profiles.contact_number'])
    .where('users.id', '=', tour.owner_id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    name: [row.name, row.surname].filter(Boolean).join(' ') || null,
    email: row.username,
    phone: row.contact_number ?? null,
  };
}

/**
 * The refusal of a link that no longer opens: the company's message in its branding (none for an unbranded link). The
 * agent's contact is for the holders of a real link of the tour (expired or revoked): a made-up token learns no more
 * than the tour's own gate shows, or anyone holding a company-only tour's id would read its owner's e-mail and phone.
 */
async function linkUnavailable(services: Services, tour: TourRow, link: AudienceLinkRow | null): Promise<AppError> {
  const gate = link?.unbranded
    ? { companyName: null, logoURL: null, accentColor: null, contact: null }
    : { ...(await gateOf(services, tour)), contact: link ? await contactOf(services, tour) : null };
  return new AppError(ERROR_CODES.AUDIENCE_LINK_UNAVAILABLE, PLAYER_GATE_TEXTS.linkUnavailable, { gate });
}

/** The tour's live link with this token, or null (unknown, another tour's, revoked, expired). */
export async function liveLink(
  services: Services,
  tourId: string,
  token: unknown,
): Promise<{ link: AudienceLinkRow | null; live: boolean }> {
  if (typeof token !== 'string' || !AUDIENCE_LINK_TOKEN.test(token)) return { link: null, live: false };
  const link =
    (await services.db
      .selectFrom('audience_links')
      .selectAll()
      .where('token', '=', token)
      .where('tour_id', '=', tourId)
      .executeTakeFirst()) ?? null;
  return { link, live: !!link && isLinkLive(link, serverNow(services)) };
}

/** The view of a live link of this tour; throws the company's message when the link no longer opens. */
async function openLinkView(services: Services, tour: TourRow, token: unknown): Promise<LinkView> {
  const { link, live } = await liveLink(services, tour.id, token);
  if (!link || !live) throw await linkUnavailable(services, tour, link);
  if (!link.hidden_marker_ids.length) return buildLinkView(link, [], []);
  const [clips, markers] = await Promise.all([
    services.db.selectFrom('clips').select(['index', 'frame_count']).where('tour_id', '=', tour.id).execute(),
    services.db.selectFrom('markers').select(['id', 'frame_index']).where('tour_id', '=', tour.id).execute(),
  ]);
  return buildLinkView(link, clips, markers);
}

/** A live link's view of a tour with these clips and markers. */
export function buildLinkView(
  link: AudienceLinkRow,
  clips: ReadonlyArray<{ index: number; frame_count: number | null }>,
  markers: ReadonlyArray<{ id: string; frame_index: number }>,
): LinkView {
  const hidden = new Set(link.hidden_marker_ids);
  if (!hidden.size) return { link, frames: null, hidden };
  const frames = new VisibleFrames(
    clips.map((c) => ({ index: c.index, frameCount: c.frame_count })),
    markers.map((m) => ({ id: m.id, frameIndex: m.frame_index })),
    hidden,
  );
  return { link, frames, hidden };
}

/** The clips a view keeps, numbered again in play order (0, 1, 2…). */
export function viewClips<C extends { index: number }>(view: LinkView, clips: readonly C[]): C[] {
  if (!view.frames) return [...clips];
  const place = new Map(view.frames.keptClips.map((index, i) => [index, i]));
  return clips
    .filter((c) => place.has(c.index))
    .map((c) => ({ ...c, index: place.get(c.index)! }))
    .sort((a, b) => a.index - b.index);
}

/**
 * The markers a view shows, at their frames in the view: hidden rooms go, and a room whose every frame went with a
 * hidden neighbour's clip goes too. `markers` are the tour's, in frame order.
 */
export function viewMarkers<M extends { id: string; frame_index: number }>(view: LinkView, markers: readonly M[]): M[] {
  const { frames } = view;
  if (!frames) return [...markers];
  const out: M[] = [];
  markers.forEach((m, i) => {
    if (view.hidden.has(m.id)) return;
    const next = markers.slice(i + 1).find((n) => n.frame_index > m.frame_index)?.frame_index ?? frames.totalFrames;
    const start = frames.roomStart(m.frame_index, next);
    if (start !== null) out.push({ ...m, frame_index: start });
  });
  return out;
}

/**
 * The players' `tour(tourID, access, link)`: the tour through one of its audience links. The link is checked first (a
 * link that no longer opens says so without asking for a password), then the tour's own access: a link does not
 * bypass a password or company-only tour.
 */
export async function viewTourThroughLink(
  services: Services,
  auth: AuthInfo | null,
  tourGlobalId: string,
  grant: unknown,
  token: unknown,
): Promise<TourRow> {
  const tour = await viewPublicTour(services, auth, tourGlobalId);
  const view = await openLinkView(services, tour, token);
  await assertCanView(services, auth, tour, grant);
  // The link's own lead gate, when it sets one, is the gate its visitors meet (services/lead-gate/link-gate.ts).
  return withLinkView(gateThroughLink(tour, view.link), view);
}
