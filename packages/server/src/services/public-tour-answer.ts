/**
 * The player's public tour answer without GraphQL execution (the uncached public tour query). The player
 * sends one fixed document (PLAYER_TOUR_QUERY, in packages/shared/src/player-documents.ts). For exactly that text,
 * a cache miss reads what GraphQL would show — the tour row as viewPublicTour reads it (with this node's unwritten
 * visits), clips, markers, the agent and the company branding — in one SQL statement (one round trip on one pooled
 * connection; the clips and markers come as JSON arrays) and serialises the answer in the document's field order.
 * The resolvers in graphql/schema/tours.ts stay the source of truth: a test asserts the bytes are identical to
 * GraphQL's answer (test/public-tour-cache.test.ts), and anything this cannot answer exactly as GraphQL would (an
 * error, a value GraphQL would refuse to serialise) returns null so that GraphQL answers instead.
 */
import type { TourRow } from '../db/types.js';
import { planHasBranding } from '@roomwalk/shared';
import { decodeId, encodeId } from '../core/ids.js';
import type { CompanyBranding } from './branding.js';
import { isLicenseActive } from './uploads.js';
import type { Services } from './services.js';
import { viewCounter } from './view-counter.js';
import { tourMediaUrl } from './tour-access/tour-access.js';
import { verifyGrant } from './tour-access/grants.js';
import { buildLinkView, liveLink, viewClips, viewMarkers, type LinkView } from './audience-links/link-view.js';
import { serverNow } from '../core/clock.js';

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
/** A string or null as JSON. */
const json = (v: string | null): string => JSON.stringify(v);
const bool = (v: unknown): boolean => {
  if (typeof v !== 'boolean') throw new NotExact();
  return v;
};

/**
 * Everything the answer shows, in one statement (one round trip, one pooled connection): the tour row as
 * viewPublicTour reads it, its clips and markers in the resolvers' order (as JSON arrays of the fields the document
 * asks for), the owner (Tour.agentProfile) and the company branding (services/branding.ts companyBranding). Every join
 * is to at most one row (primary keys; user_profiles.user_id and licenses.company_id are unique).
 */
export const PLAYER_TOUR_SQL = `SELECT t.*,
  (SELECT json_agg(json_build_array(c.id, c.index, c.frame_count, c.duration, c.high_key, c.low_key) ORDER BY c.index)
     FROM clips c WHERE c.tour_id = t.id) AS rw_clips,
  (SELECT json_agg(json_build_array(m.id, m.name, m.description, m.scroll_position, m.frame_index, m.is_fast_travel) ORDER BY m.frame_index, m.created_at)
     FROM markers m WHERE m.tour_id = t.id) AS rw_markers,
  u.username AS rw_username, p.name AS rw_name, p.surname AS rw_surname, p.contact_number AS rw_contact_number,
  p.profile_image_key AS rw_profile_image_key,
  co.logo_key AS rw_logo_key, co.accent_color AS rw_accent_color, l.plan_id AS rw_plan_id, l.end_date AS rw_end_date
FROM tours t
LEFT JOIN users u ON u.id = t.owner_id
LEFT JOIN user_profiles p ON p.user_id = u.id
LEFT JOIN companies co ON co.id = t.company_id
LEFT JOIN licenses l ON l.company_id = co.id
WHERE t.id = $1`;

/** A clip as the statement gives it: [id, index, frame_count, duration, high_key, low_key]. */
type ClipTuple = [string, unknown, unknown, unknown, unknown, unknown];
/** A marker as the statement gives it: [id, name, description, scroll_position, frame_index, is_fast_travel]. */
type MarkerTuple = [string, unknown, unknown, unknown, unknown, unknown];
interface Agent {
  username: string;
  name: string | null;
  surname: string | null;
  contact_number: string | null;
  profile_image_key: string | null;
}
type AnswerRow = TourRow & {
  rw_clips: ClipTuple[] | null;
  rw_markers: MarkerTuple[] | null;
  rw_username: string | null;
  rw_name: string | null;
  rw_surname: string | null;
  rw_contact_number: string | null;
  rw_profile_image_key: string | null;
  rw_logo_key: string | null;
  rw_accent_color: string | null;
  rw_plan_id: string | null;
  rw_end_date: Date | null;
};

/**
 * The JSON body GraphQL would answer to PLAYER_TOUR_QUERY for this tour, with the tour's access version it was made at
 * (the version its grant was checked against and its files signed with: http/public-tour-cache.ts keeps a password
 * tour's answer under it); null when GraphQL must answer (unknown, removed or malformed id, or a value GraphQL would
 * not print as is).
 */
export async function playerTourAnswer(
  services: Services,
  tourGlobalId: string,
  now = serverNow(services),
  grant?: string,
  link?: string,
): Promise<{ text: string; accessVersion: number } | null> {
  let id: string;
  try {
    id = decodeId('Tour', tourGlobalId);
  } catch {
    return null; // INVALID_TOUR_ID: GraphQL words it
  }
  const row = (await services.database.executeSql(PLAYER_TOUR_SQL, [id])).rows[0] as AnswerRow | undefined;
  if (!row || row.deleted_at) return null; // NOT_FOUND, TOUR_REMOVED: GraphQL words them (as viewPublicTour)
  // A protected tour is refused by GraphQL (services/tour-access/, with the company's branding); a password tour is
  // answered here only to its live grant (PLAYER_TOUR_ACCESS_QUERY), with its files signed.
  if (
    row.access !== 'PUBLIC' &&
    !(grant !== undefined && row.access === 'PASSWORD' && verifyGrant(services, row.id, row.access_version, grant))
  )
    return null;
  // A tour with a lead gate: GraphQL answers (services/lead-gate/: the clips up to the gate's room unless the caller
  // holds its pass).
  if (row.lead_gate_marker_id || row.lead_gate_seconds) return null;
  const {
    rw_clips,
    rw_markers,
    rw_username,
    rw_name,
    rw_surname,
    rw_contact_number,
    rw_profile_image_key,
    rw_logo_key,
    rw_accent_color,
    rw_plan_id,
    rw_end_date,
    ...tourRow
  } = row;
  // Through an audience link: its view (services/audience-links/link-view.ts); one that no longer opens, GraphQL
  // refuses.
  let view: LinkView | undefined;
  if (link !== undefined) {
    const found = await liveLink(services, row.id, link);
    if (!found.link || !found.live) return null;
    // A link with its own lead gate: GraphQL answers, as for a tour with one.
    if (found.link.lead_gate_mode) return null;
    try {
      view = buildLinkView(
        found.link,
        (rw_clips ?? []).map((c) => ({ index: int(c[1]), frame_count: int(c[2]) })),
        (rw_markers ?? []).map((m) => ({ id: str(m[0]), frame_index: float(m[4]) })),
      );
    } catch (e) {
      if (e instanceof NotExact) return null;
      throw e;
    }
  }
  // Visits not yet written by this node's batch are added, as viewPublicTour does.
  const tour = viewCounter(services).withPending(tourRow);
  const unbranded = view?.link.unbranded === true;
  const agent: Agent | null =
    rw_username === null || unbranded
      ? null
      : {
          username: rw_username,
          name: rw_name,
          surname: rw_surname,
          contact_number: rw_contact_number,
          profile_image_key: rw_profile_image_key,
        };
  const branding: CompanyBranding | null =
    !unbranded && planHasBranding(rw_plan_id) && isLicenseActive({ end_date: rw_end_date ?? null }, now)
      ? { logoKey: rw_logo_key, accentColor: rw_accent_color }
      : null;
  try {
    const clips = rw_clips ?? [];
    const markers = rw_markers ?? [];
    const at = (text: string) => ({ text, accessVersion: row.access_version });
    if (!view) return at(serialise(services, tour, clips, markers, agent, branding));
    // The view's clips numbered again, its markers moved into its frames; no poster when rooms are hidden.
    const keptClips = viewClips(
      view,
      clips.map((c) => ({ index: int(c[1]), c })),
    ).map(({ index, c }): ClipTuple => [c[0], index, c[2], c[3], c[4], c[5]]);
    const keptMarkers = viewMarkers(
      view,
      markers.map((m) => ({ id: str(m[0]), frame_index: float(m[4]), m })),
    ).map(({ frame_index, m }): MarkerTuple => [m[0], m[1], m[2], m[3], frame_index, m[5]]);
    const shown = {
      ...tour,
      thumbnail_key: view.frames ? null : tour.thumbnail_key,
      intro_logo_key: unbranded ? null : tour.intro_logo_key,
      listing_link: unbranded ? null : tour.listing_link,
    };
    return at(serialise(services, shown, keptClips, keptMarkers, agent, branding));
  } catch (e) {
    if (e instanceof NotExact) return null;
    throw e;
  }
}

function serialise(
  services: Services,
  r: TourRow,
  clips: ClipTuple[],
  markers: MarkerTuple[],
  agent: Agent | null,
  branding: CompanyBranding | null,
): string {
  // The tour's own files as tourMediaUrl makes them (signed while protected); the logo and the agent's photo stay
  // public.
  const url = (key: string) => services.storage.publicUrl(key);
  const tourUrl = (key: string) => tourMediaUrl(services, r, key);
  const introKey = r.intro_logo_key ?? branding?.logoKey;
  const vi = (r.video_info ?? null) as Record<string, unknown> | null;
  if (vi !== null && (typeof vi !== 'object' || Array.isArray(vi))) throw new NotExact();
  const tourGlobal = encodeId('Tour', r.id);
  const tourJson = json(tourGlobal);
  // Written out directly (no intermediate objects per clip and marker): each value is checked as GraphQL would print
  // it, strings through JSON.stringify, numbers as JSON.stringify prints a finite number (its shortest decimal form).
  let out =
    `{"data":{"tour":{"id":${tourJson},"title":${json(strOrNull(r.title))},"description":${json(strOrNull(r.description))}` +
    `,"thumbnailURL":${json(r.thumbnail_key ? tourUrl(r.thumbnail_key) : null)},"tourIntroLogoURL":${json(introKey ? url(introKey) : null)}` +
    `,"tourAccentColor":${json(strOrNull(branding?.accentColor ?? null))},"listingLink":${json(strOrNull(r.listing_link))}` +
    `,"views":${int(r.views)},"status":{"status":${json(str(r.status))}},"videoInfo":` +
    (vi
      ? `{"width":${int(vi.width)},"height":${int(vi.height)},"fullSize":${float(vi.fullSize)},"mediumSize":${float(vi.mediumSize)},"smallSize":${float(vi.smallSize)}}`
      : 'null') +
    ',"clips":[';
  for (let i = 0; i < clips.length; i++) {
    const [cid, index, frameCount, duration, high, low] = clips[i]!;
    out +=
      `${i ? ',' : ''}{"id":${json(encodeId('Clip', str(cid)))},"index":${int(index)},"frameCount":${int(frameCount)},"duration":${float(duration)}` +
      `,"highURI":${json(str(tourUrl(str(high))))},"lowURI":${json(str(tourUrl(str(low))))}}`;
  }
  out += '],"markers":[';
  for (let i = 0; i < markers.length; i++) {
    const [mid, name, description, scrollPosition, frameIndex, isFastTravel] = markers[i]!;
    out +=
      `${i ? ',' : ''}{"id":${json(encodeId('Marker', str(mid)))},"name":${json(str(name))},"description":${json(str(description))},"tourId":${tourJson}` +
      `,"scrollPosition":${float(scrollPosition)},"frameIndex":${float(frameIndex)},"isFastTravel":${bool(isFastTravel)}}`;
  }
  out += '],"agentProfile":';
  out += agent
    ? `{"fullname":${json(str([agent.name, agent.surname].filter(Boolean).join(' ') || agent.username))},"contactNumber":${json(strOrNull(agent.contact_number))}` +
      `,"email":${json(str(agent.username))},"profileImageURL":${json(agent.profile_image_key ? url(agent.profile_image_key) : null)}}`
    : 'null';
  // Tours with a lead gate never come here (GraphQL answers them).
  out += ',"leadGate":null';
  return `${out}}}}`;
}
