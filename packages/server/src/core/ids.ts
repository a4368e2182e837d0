/** Global ids (`tour_<uuid>`): encoding and decoding, shared by the API, services and routes. */
import { ERROR_CODES } from '@roomwalk/shared';
import { AppError, notFound } from './errors.js';

/** Prefixes of our global ids: `tour_<uuid>`, readable in links and logs. */
const ID_PREFIXES = {
  Tour: 'tour',
  User: 'user',
  UserProfile: 'profile',
  Company: 'company',
  License: 'license',
  TeamInvite: 'invite',
  Marker: 'marker',
  Clip: 'clip',
  Reel: 'reel',
  Shot: 'shot',
  TourLead: 'lead',
} as const;
export type NodeTypeName = keyof typeof ID_PREFIXES;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Whether `s` is a uuid (ids inside cursors and paths). */
export const isUuid = (s: string): boolean => UUID.test(s);

export function encodeId(typename: NodeTypeName, id: string): string {
  return `${ID_PREFIXES[typename]}_${id}`;
}

/** Decodes a global id of the expected type; malformed ids are NOT_FOUND (or INVALID_TOUR_ID for tours). */
export function decodeId(typename: NodeTypeName, globalId: string): string {
  const prefix = `${ID_PREFIXES[typename]}_`;
  const raw = typeof globalId === 'string' && globalId.startsWith(prefix) ? globalId.slice(prefix.length) : '';
  if (!UUID.test(raw)) {
    if (typename === 'Tour') throw new AppError(ERROR_CODES.INVALID_TOUR_ID, 'This is not a valid tour link.');
    throw new AppError(ERROR_CODES.NOT_FOUND, 'Not found.');
  }
  return raw.toLowerCase();
}

export function parseGlobalId(globalId: string): { typename: NodeTypeName; id: string } | null {
  const m = /^([a-z]+)_(.+)$/.exec(globalId);
  if (!m) return null;
  const entry = Object.entries(ID_PREFIXES).find(([, p]) => p === m[1]);
  if (!entry || !UUID.test(m[2]!)) return null;
  return { typename: entry[0] as NodeTypeName, id: m[2]!.toLowerCase() };
}

/**
 * Ids of objects that `node(id)` does not load (the developer platform's keys, endpoints and deliveries; seller report
 * links and runs): the same `<prefix>_<uuid>` form, each read back only where its own kind is expected.
 */
const TYPED_ID_PREFIXES = {
  ApiKey: 'apikey',
  WebhookEndpoint: 'whep',
  WebhookDelivery: 'whdel',
  SellerReportLink: 'sellerlink',
  SellerReportRun: 'sellerrun',
  AudienceLink: 'audlink',
} as const;
type TypedIdKind = keyof typeof TYPED_ID_PREFIXES;

export const encodeTypedId = (kind: TypedIdKind, id: string): string => `${TYPED_ID_PREFIXES[kind]}_${id}`;

/** The uuid of a typed id of `kind`; anything else is NOT_FOUND with `notFoundText` (the words for that kind). */
export function decodeTypedId(kind: TypedIdKind, globalId: string, notFoundText: string): string {
  const prefix = `${TYPED_ID_PREFIXES[kind]}_`;
  const raw = String(globalId).startsWith(prefix) ? String(globalId).slice(prefix.length) : '';
  if (!UUID.test(raw)) throw notFound(notFoundText);
  return raw.toLowerCase();
}
