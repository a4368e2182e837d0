/**
 * What a shared link shows before anyone opens it (docs/access-and-privacy.md "Link previews"): the card a chat, feed
 * or site builder makes of the share page (Open Graph, Twitter card, oEmbed, JSON-LD). Access first: a card never shows
 * more than its link opens. A protected tour (password, company only), a deactivated one and an audience link that no
 * longer opens get a neutral card (the company's name and logo at most); an audience link's card lists only the rooms
 * it shows and has no picture when it hides any (the poster may show a hidden room); an unbranded link (`unbranded=true`
 * or an unbranded audience link) names no company and no agent.
 */
import { AUDIENCE_LINK_TOKEN, PLAYER_GATE_TEXTS, PRODUCT_NAME, TOUR_ACCESS, TOUR_STATUS } from '@roomwalk/shared';
import { parseGlobalId } from '../../core/ids.js';
import type { TourRow } from '../../db/types.js';
import { buildLinkView, liveLink, viewMarkers } from '../audience-links/link-view.js';
import { requestBranding } from '../branding.js';
import type { Services } from '../services.js';
import { SHARE_IMAGE } from './preview-image.js';
import { serverNow } from '../../core/clock.js';

/** The paths of a tour's share page (the external player, and the agent's player). */
export const SHARE_PATHS = ['/playerext', '/agentplayer'] as const;

/** Rooms named in a card's description before "…". */
const ROOMS_NAMED = 8;

export const SHARE_TEXTS = {
  untitled: `${PRODUCT_NAME} tour`,
  rooms: (n: number, names: string[]) =>
    `Walk through ${n} ${n === 1 ? 'room' : 'rooms'}: ${names.slice(0, ROOMS_NAMED).join(', ')}${n > ROOMS_NAMED ? ', …' : ''}`,
  noRooms: `A walkthrough tour on ${PRODUCT_NAME}.`,
  protected: `${PLAYER_GATE_TEXTS.tourPasswordTitle}. ${PLAYER_GATE_TEXTS.tourPasswordText}`,
  membersOnly: `${PLAYER_GATE_TEXTS.tourMembersOnlyTitle}. ${PLAYER_GATE_TEXTS.tourMembersOnly}`,
  unavailable: PLAYER_GATE_TEXTS.linkUnavailable,
  imageAlt: (title: string) => `A view inside ${title}`,
  logoAlt: (company: string) => `${company} logo`,
} as const;

/** A share link as asked: the tour's global id, an audience link's token, the unbranded (MLS) switch. */
export interface ShareRequest {
  tourId: string;
  link: string | null;
  unbranded: boolean;
}

interface ShareImage {
  url: string;
  width: number | null;
  height: number | null;
  alt: string;
}

export interface ShareCard {
  /** 'tour': the tour as its link shows it; 'neutral': nothing of the tour. */
  kind: 'tour' | 'neutral';
  /** The page's `<title>` and og:title: the tour's title, then the company (neutral: the company, or the product). */
  title: string;
  description: string;
  /** og:site_name: the company, or the product when unbranded. */
  siteName: string;
  /** The company for oEmbed's author_name (null when unbranded or unknown). */
  company: string | null;
  image: ShareImage | null;
  /** The canonical share link (og:url, what oEmbed is asked about). */
  url: string;
  /** The iframe source of an embed of this link. */
  embedUrl: string;
  /** The tour's width / height (the picture's aspect), for sizing an embed. */
  aspect: number;
  /** Search engines may show the page: a listed public tour's own link, branded. */
  indexable: boolean;
  /** The tour as the card shows it (null when neutral): its title and rooms, for JSON-LD and the flyer. */
  tour: { title: string; rooms: string[]; description: string | null; updatedAt: Date } | null;
}

/** Reads a share request from a share page's query (null when it names no tour). */
export function shareRequestOf(query: URLSearchParams): ShareRequest | null {
  const tourId = query.get('tourId');
  if (!tourId) return null;
  const link = query.get('link');
  return {
    tourId,
    link: link && AUDIENCE_LINK_TOKEN.test(link) ? link : link ? '' : null,
    unbranded: query.get('unbranded') === 'true',
  };
}

/** The canonical share link of a request (the tour, its audience link, the unbranded switch; nothing else). */
export function shareUrl(base: string, r: ShareRequest, path: string = SHARE_PATHS[0]): string {
  const q = new URLSearchParams({ tourId: r.tourId });
  if (r.link !== null) q.set('link', r.link);
  if (r.unbranded) q.set('unbranded', 'true');
  return `${base}${path}?${q}`;
}

async function loadTour(services: Services, globalId: string): Promise<TourRow | null> {
  const parsed = parseGlobalId(globalId);
  if (parsed?.typename !== 'Tour') return null;
  const tour = await services.db.selectFrom('tours').selectAll().where('id', '=', parsed.id).executeTakeFirst();
  return tour && !tour.deleted_at ? tour : null;
}

const aspectOf = (tour: TourRow): number => {
  const info = tour.video_info as { width?: number; height?: number } | null;
  return info?.width && info.height ? info.width / info.height : 16 / 9;
};

/**
 * The card of a share link, or null when the link names no tour (unknown or deleted: the page is the console's own,
 * and oEmbed answers 404).
 */
export async function shareCard(services: Services, r: ShareRequest, path?: string): Promise<ShareCard | null> {
  const tour = await loadTour(services, r.tourId);
  if (!tour) return null;
  const base = services.config.publicUrl;
  const url = shareUrl(base, r, path);
  const embed = new URL(url);
  embed.searchParams.set('disabledControls', 'feedback');
  const { link, live } = r.link !== null ? await liveLink(services, tour.id, r.link) : { link: null, live: true };
  const unbranded = r.unbranded || !!link?.unbranded;
  const [company, branding] = unbranded
    ? [null, null]
    : await Promise.all([
        services.db.selectFrom('companies').select('name').where('id', '=', tour.company_id).executeTakeFirst(),
        requestBranding({}, services.db, tour.company_id, serverNow(services)),
      ]);
  const companyName = company?.name ?? null;
  const common = {
    siteName: companyName ?? PRODUCT_NAME,
    company: companyName,
    url,
    embedUrl: embed.toString(),
    aspect: aspectOf(tour),
  };
  const deactivated = !!tour.deactivated_at || tour.status === TOUR_STATUS.DEACTIVATED;
  if (!live || deactivated || tour.access !== TOUR_ACCESS.public) {
    const description =
      !live || deactivated
        ? SHARE_TEXTS.unavailable
        : tour.access === TOUR_ACCESS.company
          ? SHARE_TEXTS.membersOnly
          : SHARE_TEXTS.protected;
    const logo =
      companyName && branding?.logoKey
        ? {
            url: services.storage.publicUrl(branding.logoKey),
            width: null,
            height: null,
            alt: SHARE_TEXTS.logoAlt(companyName),
          }
        : null;
    return {
      ...common,
      kind: 'neutral',
      title: companyName ?? PRODUCT_NAME,
      description,
      image: logo,
      indexable: false,
      tour: null,
    };
  }

  const markers = await services.db
    .selectFrom('markers')
    .select(['id', 'name', 'frame_index'])
    .where('tour_id', '=', tour.id)
    .orderBy('frame_index')
    .orderBy('created_at')
    .execute();
  let shown = markers;
  let hidesRooms = false;
  if (link?.hidden_marker_ids.length) {
    const clips = await services.db
      .selectFrom('clips')
      .select(['index', 'frame_count'])
      .where('tour_id', '=', tour.id)
      .execute();
    shown = viewMarkers(buildLinkView(link, clips, markers), markers);
    hidesRooms = true;
  }
  const rooms = shown.map((m) => m.name);
  const title = tour.title?.trim() || SHARE_TEXTS.untitled;
  const description = rooms.length
    ? SHARE_TEXTS.rooms(rooms.length, rooms)
    : tour.description?.trim() || SHARE_TEXTS.noRooms;
  // The poster may show a room the link hides: no picture through such a link.
  const imageKey = hidesRooms ? null : (tour.share_image_key ?? null);
  const image = imageKey
    ? { url: services.storage.publicUrl(imageKey), ...SHARE_IMAGE, alt: SHARE_TEXTS.imageAlt(title) }
    : !hidesRooms && tour.thumbnail_key
      ? {
          url: services.storage.publicUrl(tour.thumbnail_key),
          width: null,
          height: null,
          alt: SHARE_TEXTS.imageAlt(title),
        }
      : null;
  return {
    ...common,
    kind: 'tour',
    title: companyName ? `${title} — ${companyName}` : title,
    description,
    image,
    indexable: tour.listed && r.link === null && !r.unbranded,
    tour: { title, rooms, description: tour.description?.trim() || null, updatedAt: tour.updated_at },
  };
}
