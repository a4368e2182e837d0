/**
 * The player's side of tour access (docs/access-and-privacy.md): the tour query carries this session's grant
 * (api/access-grant.ts), and a protected tour's refusal becomes the gate the password screen shows (the company's
 * branding only). The screen and the unlock call are in their own chunk (tour-player/access-gate.ts).
 */
import { PLAYER_TOUR_ACCESS_QUERY, PLAYER_TOUR_LINK_QUERY, PLAYER_TOUR_QUERY } from '@roomwalk/shared/player-documents';
import { dropGrant, grantFor } from './access-grant.js';
import { graphqlRequest, GraphQLRequestError } from './graphql.js';
import type { DocumentResult } from './graphql-types.js';
import type { PlayerTour } from './types.js';

/** The answer of the tour's forms with a grant or a link: texts built at run time, with the tour document's fields. */
type TourAnswer = DocumentResult<typeof PLAYER_TOUR_QUERY>;

/** Whom to contact when an audience link no longer opens: the tour's agent. */
interface GateContact {
  name: string | null;
  email: string | null;
  phone: string | null;
}

/**
 * What the password, members-only or "no longer available" screen shows: never the tour's title, poster or rooms.
 * `unavailable`: an audience link that expired or was revoked, with the agent's contact.
 */
export interface TourGate {
  kind: 'password' | 'members' | 'unavailable';
  companyName: string | null;
  logoURL: string | null;
  accentColor: string | null;
  contact?: GateContact | null;
}

/** The gate as the player shows it: what the server allowed, and the form's state. */
export interface GateState extends TourGate {
  /** The last refusal, in the visitor's words ('' for none). */
  error: string;
  busy: boolean;
}

/** The tour query was refused for access: `gate` is what the screen may show. */
export class TourGateError extends Error {
  constructor(readonly gate: TourGate) {
    super(
      gate.kind === 'password'
        ? 'This tour is protected by a password.'
        : gate.kind === 'members'
          ? 'This tour is for members of its company.'
          : 'This tour is no longer available.',
    );
    this.name = 'TourGateError';
  }
}

const GATE_CODES: Record<string, TourGate['kind']> = {
  TOUR_PASSWORD_REQUIRED: 'password',
  TOUR_MEMBERS_ONLY: 'members',
  AUDIENCE_LINK_UNAVAILABLE: 'unavailable',
};
const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

const contactOf = (v: unknown): GateContact | null => {
  if (!v || typeof v !== 'object') return null;
  const c = v as Record<string, unknown>;
  return { name: text(c.name), email: text(c.email), phone: text(c.phone) };
};

/**
 * The tour for the player: with this session's grant when it has one, through the audience link when given (`link`);
 * a refusal for access, or a link that no longer opens, throws TourGateError.
 */
export async function fetchPlayerTour(
  api: string,
  tourId: string,
  token: string | undefined,
  signal: AbortSignal,
  link = '',
): Promise<PlayerTour | null> {
  const grant = grantFor(tourId);
  try {
    // With a grant or a link: the same GET, the grant and the link in its headers (never its URL, which access logs
    // keep), answered by the server without GraphQL and kept by no cache.
    const capabilities = { access: grant, link: link || undefined };
    const data = link
      ? await graphqlRequest<TourAnswer>(
          api,
          PLAYER_TOUR_LINK_QUERY,
          { tourID: tourId },
          { token, signal, get: true, capabilities },
        )
      : grant
        ? await graphqlRequest<TourAnswer>(
            api,
            PLAYER_TOUR_ACCESS_QUERY,
            { tourID: tourId },
            { token, signal, get: true, capabilities },
          )
        : await graphqlRequest(api, PLAYER_TOUR_QUERY, { tourID: tourId }, { token, signal, get: true });
    return data.tour;
  } catch (e) {
    // A session that no longer stands (expired, signed out elsewhere, its account deleted) does not stop a visitor: the
    // tour is asked for as anyone would ask (a company-only tour then shows its gate).
    if (token && e instanceof GraphQLRequestError && e.code === 'UNAUTHENTICATED')
      return fetchPlayerTour(api, tourId, undefined, signal, link);
    const kind = e instanceof GraphQLRequestError && e.code ? GATE_CODES[e.code] : undefined;
    if (!kind) throw e;
    // A grant the tour no longer honours (its password changed): forget it.
    if (grant) dropGrant(tourId);
    const g = ((e as GraphQLRequestError).extensions?.gate ?? {}) as Record<string, unknown>;
    throw new TourGateError({
      kind,
      companyName: text(g.companyName),
      logoURL: text(g.logoURL),
      accentColor: text(g.accentColor),
      contact: contactOf(g.contact),
    });
  }
}
