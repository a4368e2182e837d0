/**
 * The player's public tour answer without GraphQL execution (issue 15: the uncached public tour query). The player
 * sends one fixed document (PLAYER_TOUR_DOCUMENT, packages/player-element/src/api/queries.ts). For exactly that text,
 * a cache miss loads the tour as GraphQL does — viewPublicTour (the same row, errors and view counts), then clips,
 * markers, the agent and the company branding in parallel: 2 round trips, as a bare route — and serialises the answer
 * in the document's field order. The resolvers in graphql/schema/tours.ts stay the source of truth: a test asserts the
 * bytes are identical to GraphQL's answer (test/public-tour-cache.test.ts), and anything this cannot answer exactly as
 * GraphQL would (an error, a value GraphQL would refuse to serialise) returns null so that GraphQL answers instead.
 */
import type { ClipRow, MarkerRow, TourRow } from '../db/types.js';
import { encodeId } from '../graphql/builder.js';
import { companyBranding } from './branding.js';
import type { Services } from './services.js';
import { viewPublicTour } from './tours.js';

/** The player's tour query, character for character (a test compares it with the element's). */
export const PLAYER_TOUR_DOCUMENT = `query PlayerTour($tourID: ID!) {
  tour(tourID: $tourID) {
    id title description thumbnailURL tourIntroLogoURL tourAccentColor listingLink views
    status { status }
    videoInfo { width height fullSize mediumSize smallSize }
    clips { id index frameCount duration highURI lowURI }
    markers { id name description tourId scrollPosition frameIndex isFastTravel }
    agentProfile { fullname contactNumber email profileImageURL }
  }
}`;

/** Thrown inside the serialiser when a value is not what GraphQL would print as is: GraphQL answers instead. */
class NotExact extends Error {}

const INT_MAX = 2 ** 31 - 1;
const int = (v: unknown): number => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v > INT_MAX || v < -INT_MAX - 1) throw new NotExact();
  return v;
};
const float = (v: unknown): number => {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new NotExact();
  return v;
};
const str = (v: unknown): string => {
  if (typeof v !== 'string') throw new NotExact();
  return v;
};
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : str(v));
const bool = (v: unknown): boolean => {
  if (typeof v !== 'boolean') throw new NotExact();
  return v;
};

/** The same statements as the Tour.clips / Tour.markers / Tour.agentProfile resolvers. */
const loadClips = (services: Services, tourId: string) => services.db.selectFrom('clips').selectAll().where('tour_id', '=', tourId).orderBy('index').execute();
const loadMarkers = (services: Services, tourId: string) =>
  services.db.selectFrom('markers').selectAll().where('tour_id', '=', tourId).orderBy('frame_index').orderBy('created_at').execute();
const loadAgent = (services: Services, ownerId: string) =>
  services.db
    .selectFrom('users')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'users.id')
    .select(['users.username', 'user_profiles.name', 'user_profiles.surname', 'user_profiles.contact_number', 'user_profiles.profile_image_key'])
    .where('users.id', '=', ownerId)
    .executeTakeFirst();

/**
 * The JSON body GraphQL would answer to PLAYER_TOUR_DOCUMENT for this tour, or null when GraphQL must answer
 * (unknown, removed or malformed id, or a value GraphQL would not print as is).
 */
export async function playerTourAnswer(services: Services, tourGlobalId: string): Promise<string | null> {
  let tour: TourRow;
  try {
    tour = await viewPublicTour(services, null, tourGlobalId);
  } catch {
    return null; // NOT_FOUND, TOUR_REMOVED, INVALID_TOUR_ID: GraphQL words them
  }
  const [clips, markers, agent, branding] = await Promise.all([loadClips(services, tour.id), loadMarkers(services, tour.id), loadAgent(services, tour.owner_id), companyBranding(services.db, tour.company_id)]);
  try {
    return serialise(services, tour, clips, markers, agent, branding);
  } catch (e) {
    if (e instanceof NotExact) return null;
    throw e;
  }
}

function serialise(
  services: Services,
  r: TourRow,
  clips: ClipRow[],
  markers: MarkerRow[],
  agent: Awaited<ReturnType<typeof loadAgent>>,
  branding: Awaited<ReturnType<typeof companyBranding>>,
): string {
  const url = (key: string) => services.storage.publicUrl(key);
  const introKey = r.intro_logo_key ?? branding?.logoKey;
  const vi = (r.video_info ?? null) as Record<string, unknown> | null;
  if (vi !== null && (typeof vi !== 'object' || Array.isArray(vi))) throw new NotExact();
  const tourGlobal = encodeId('Tour', r.id);
  const tour = {
    id: tourGlobal,
    title: strOrNull(r.title),
    description: strOrNull(r.description),
    thumbnailURL: r.thumbnail_key ? url(r.thumbnail_key) : null,
    tourIntroLogoURL: introKey ? url(introKey) : null,
    tourAccentColor: strOrNull(branding?.accentColor ?? null),
    listingLink: strOrNull(r.listing_link),
    views: int(r.views),
    status: { status: str(r.status) },
    videoInfo: vi ? { width: int(vi.width), height: int(vi.height), fullSize: float(vi.fullSize), mediumSize: float(vi.mediumSize), smallSize: float(vi.smallSize) } : null,
    clips: clips.map((c) => ({ id: encodeId('Clip', c.id), index: int(c.index), frameCount: int(c.frame_count), duration: float(c.duration), highURI: str(url(c.high_key)), lowURI: str(url(c.low_key)) })),
    markers: markers.map((m) => ({
      id: encodeId('Marker', m.id), name: str(m.name), description: str(m.description), tourId: encodeId('Tour', m.tour_id),
      scrollPosition: float(m.scroll_position), frameIndex: float(m.frame_index), isFastTravel: bool(m.is_fast_travel),
    })),
    agentProfile: agent
      ? {
          fullname: str([agent.name, agent.surname].filter(Boolean).join(' ') || agent.username),
          contactNumber: strOrNull(agent.contact_number),
          email: str(agent.username),
          profileImageURL: agent.profile_image_key ? url(agent.profile_image_key) : null,
        }
      : null,
  };
  return JSON.stringify({ data: { tour } });
}
