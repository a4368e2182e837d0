/**
 * Audience links, the agent's side (docs/access-and-privacy.md): labelled links to one tour with an optional expiry,
 * hidden rooms and an unbranded flag; revoked, never deleted (their visits stay counted under their label). The tour's
 * owner or a company admin makes and revokes them, as for every change to a tour (loadEditableTour).
 */
import { randomBytes } from 'node:crypto';
import { AUDIENCE_LINKS_PER_TOUR, VALIDATION, audienceLinkInputSchema, type AudienceLinkInput } from '@roomwalk/shared';
import type { AuthInfo } from '../../core/auth.js';
import { serverNow } from '../../core/clock.js';
import { badInput, fromZod, notFound } from '../../core/errors.js';
import { decodeId, decodeTypedId, encodeId } from '../../core/ids.js';
import type { AudienceLinkRow } from '../../db/tables/audience-links.js';
import type { Services } from '../services.js';
import { assertCanEdit, loadEditableTour } from '../tours.js';
import { linkGateColumns } from '../lead-gate/link-gate.js';

const LINK_NOT_FOUND = 'This audience link was not found.';

/** The share page of a link: the tour's share URL with `link=` (the player's `audience-link`). */
export function audienceLinkUrl(services: Services, link: Pick<AudienceLinkRow, 'tour_id' | 'token'>): string {
  return `${services.config.publicUrl}/playerext?tourId=${encodeId('Tour', link.tour_id)}&link=${link.token}`;
}

/** Whether the link opens now (not revoked, not past its expiry by the server's clock). */
export function isLinkLive(link: Pick<AudienceLinkRow, 'revoked_at' | 'expires_at'>, now: Date): boolean {
  return !link.revoked_at && (!link.expires_at || link.expires_at.getTime() > now.getTime());
}

/** The tour's links, newest first, revoked ones too (the dialog shows them as revoked). */
export async function listAudienceLinks(
  services: Services,
  auth: AuthInfo,
  tourGlobalId: string,
): Promise<AudienceLinkRow[]> {
  const tour = await loadEditableTour(services, auth, tourGlobalId);
  return services.db
    .selectFrom('audience_links')
    .selectAll()
    .where('tour_id', '=', tour.id)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Visits made through each link (every visit, ever), for the Sharing dialog. */
export async function visitsByLink(services: Services, linkIds: readonly string[]): Promise<Map<string, number>> {
  if (!linkIds.length) return new Map();
  const rows = await services.db
    .selectFrom('view_events')
    .select(['audience_link_id', (eb) => eb.fn.countAll<string>().as('visits')])
    .where('audience_link_id', 'in', [...linkIds])
    .groupBy('audience_link_id')
    .execute();
  return new Map(rows.map((r) => [r.audience_link_id!, Number(r.visits)]));
}

export async function createAudienceLink(
  services: Services,
  auth: AuthInfo,
  tourGlobalId: string,
  input: AudienceLinkInput,
): Promise<AudienceLinkRow> {
  const tour = await loadEditableTour(services, auth, tourGlobalId);
  const parsed = audienceLinkInputSchema.safeParse(input);
  if (!parsed.success) throw fromZod(parsed.error.issues);
  const { label, expiresAt, hiddenMarkerIds, unbranded, leadGate } = parsed.data;
  const expires = expiresAt ? new Date(expiresAt) : null;
  if (expires && expires.getTime() <= serverNow(services).getTime())
    throw badInput(VALIDATION.audienceLinkExpiryPast, 'expiresAt');
  const markers = await services.db.selectFrom('markers').select('id').where('tour_id', '=', tour.id).execute();
  const known = new Set(markers.map((m) => m.id));
  const hidden = new Set<string>();
  for (const globalId of hiddenMarkerIds) {
    let id: string;
    try {
      id = decodeId('Marker', globalId);
    } catch {
      throw badInput(VALIDATION.audienceLinkRoomUnknown, 'hiddenMarkerIds');
    }
    if (!known.has(id)) throw badInput(VALIDATION.audienceLinkRoomUnknown, 'hiddenMarkerIds');
    hidden.add(id);
  }
  if (hidden.size > 0 && hidden.size >= known.size) throw badInput(VALIDATION.audienceLinkAllHidden, 'hiddenMarkerIds');
  const gate = await linkGateColumns(services, tour.id, leadGate, hidden);
  const live = await services.db
    .selectFrom('audience_links')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tour_id', '=', tour.id)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(live.n) >= AUDIENCE_LINKS_PER_TOUR) throw badInput(VALIDATION.audienceLinkTooMany, 'label');
  return services.db
    .insertInto('audience_links')
    .values({
      tour_id: tour.id,
      company_id: tour.company_id,
      created_by: auth.userId,
      token: randomBytes(24).toString('base64url'),
      label,
      expires_at: expires,
      hidden_marker_ids: [...hidden],
      unbranded,
      ...gate,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Revokes a link at once (its next request shows the company's message); revoking twice changes nothing. */
export async function revokeAudienceLink(
  services: Services,
  auth: AuthInfo,
  linkGlobalId: string,
): Promise<AudienceLinkRow> {
  const id = decodeTypedId('AudienceLink', linkGlobalId, LINK_NOT_FOUND);
  const link = await services.db.selectFrom('audience_links').selectAll().where('id', '=', id).executeTakeFirst();
  if (!link) throw notFound(LINK_NOT_FOUND);
  // The tour's own check: another company's link is "not found", a colleague who may not edit the tour is refused.
  const tour = await services.db
    .selectFrom('tours')
    .select(['company_id', 'owner_id'])
    .where('id', '=', link.tour_id)
    .executeTakeFirst();
  if (!tour || tour.company_id !== auth.companyId) throw notFound(LINK_NOT_FOUND);
  assertCanEdit(auth, tour);
  if (link.revoked_at) return link;
  return services.db
    .updateTable('audience_links')
    .set({ revoked_at: serverNow(services) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The id of one of the tour's audience links (any status), for filtering its figures; NOT_FOUND for any other. */
export async function audienceLinkOfTour(services: Services, tourId: string, linkGlobalId: string): Promise<string> {
  const id = decodeTypedId('AudienceLink', linkGlobalId, LINK_NOT_FOUND);
  const link = await services.db
    .selectFrom('audience_links')
    .select('id')
    .where('id', '=', id)
    .where('tour_id', '=', tourId)
    .executeTakeFirst();
  if (!link) throw notFound(LINK_NOT_FOUND);
  return link.id;
}

/** The tour's links by name, for the seller report's filter (no tokens: the seller sees names only). */
export function audienceLinkNames(services: Services, tourId: string): Promise<Array<{ id: string; label: string }>> {
  return services.db
    .selectFrom('audience_links')
    .select(['id', 'label'])
    .where('tour_id', '=', tourId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
