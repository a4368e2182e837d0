/**
 * The player's public tour answer without GraphQL execution (issue 15: the uncached public tour query). The player
 * sends one fixed document (PLAYER_TOUR_DOCUMENT, packages/player-element/src/api/queries.ts). For exactly that text,
 * a cache miss loads the tour as GraphQL does — viewPublicTour (the same row, errors and view counts), clips, markers,
 * the agent and the company branding, all in parallel by tour id: 1 round trip (GraphQL and a bare route take 2) —
 * and serialises the answer
 * in the document's field order. The resolvers in graphql/schema/tours.ts stay the source of truth: a test asserts the
 * bytes are identical to GraphQL's answer (test/public-tour-cache.test.ts), and anything this cannot answer exactly as
 * GraphQL would (an error, a value GraphQL would refuse to serialise) returns null so that GraphQL answers instead.
 */
import type { ClipRow, MarkerRow, TourRow } from '../db/types.js';
import { planHasBranding } from '@roomwalk/shared';
import { decodeId, encodeId } from '../graphql/builder.js';
import type { CompanyBranding } from './branding.js';
import { isLicenseActive } from './uploads.js';
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
/** The owner named through the tour (so it needs no first round trip for the tour row). */
const loadAgent = (services: Services, tourId: string) =>
  services.db
    .selectFrom('users')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'users.id')
    .select(['users.username', 'user_profiles.name', 'user_profiles.surname', 'user_profiles.contact_number', 'user_profiles.profile_image_key'])
    .where('users.id', '=', (eb) => eb.selectFrom('tours').select('owner_id').where('id', '=', tourId))
    .executeTakeFirst();
/** services/branding.ts companyBranding, with the company named through the tour. */
async function loadBranding(services: Services, tourId: string, now = new Date()): Promise<CompanyBranding | null> {
  const row = await services.db
    .selectFrom('companies')
    .leftJoin('licenses', 'licenses.company_id', 'companies.id')
    .select(['companies.logo_key', 'companies.accent_color', 'licenses.plan_id', 'licenses.end_date'])
    .where('companies.id', '=', (eb) => eb.selectFrom('tours').select('company_id').where('id', '=', tourId))
    .executeTakeFirst();
  if (!row || !planHasBranding(row.plan_id) || !isLicenseActive({ end_date: row.end_date ?? null }, now)) return null;
  return { logoKey: row.logo_key, accentColor: row.accent_color };
}

/**
 * The JSON body GraphQL would answer to PLAYER_TOUR_DOCUMENT for this tour, or null when GraphQL must answer
 * (unknown, removed or malformed id, or a value GraphQL would not print as is).
 */
export async function playerTourAnswer(services: Services, tourGlobalId: string): Promise<string | null> {
  let id: string;
  try {
    id = decodeId('Tour', tourGlobalId);
  } catch {
    return null; // INVALID_TOUR_ID: GraphQL words it
  }
  // One round trip: every statement names the tour (the bare route needs two).
  const [tour, clips, markers, agent, branding] = await Promise.all([
    viewPublicTour(services, null, tourGlobalId).catch(() => null), // NOT_FOUND, TOUR_REMOVED: GraphQL words them
    loadClips(services, id), loadMarkers(services, id), loadAgent(services, id), loadBranding(services, id),
  ]);
  if (!tour) return null;
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
  branding: CompanyBranding | null,
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
