/**
 * Shareable seller report links: `rws_<random>` tokens that open a read-only report of one tour without login. Only
 * a SHA-256 of the token is stored (as for API keys): the link is shown once, when it is made. A link covers the
 * last 7, 30 or 90 days up to the moment it is opened, expires after 1–90 days and can be revoked; an expired or
 * revoked link answers NOT_FOUND like one that never existed, so links cannot be probed.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AuthInfo } from '../../core/auth.js';
import { badInput, notFound } from '../../core/errors.js';
import { decodeTypedId, encodeId, encodeTypedId } from '../../core/ids.js';
import type { Services } from '../services.js';
import { hasAnalyticsPlan, sellerReportTour } from './access.js';
import type { SellerLinkRow } from '../../db/tables/seller-reports.js';
import { serverNow } from '../../core/clock.js';
import { DAY_MS } from '../../core/days.js';

const TOKEN_PREFIX = 'rws_';
const SHOWN_PREFIX_LENGTH = 10;
const LINK_PERIODS = [7, 30, 90] as const;
const LINK_EXPIRY = { minDays: 1, maxDays: 90, defaultDays: 30 } as const;
const LINK_NOT_FOUND_TEXT = 'This report link is not valid any more. Ask the agent for a new one.';

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
/** The page a seller opens (a console route that needs no login). */
const sellerReportUrl = (services: Services, token: string) => `${services.config.publicUrl}/seller-report/${token}`;

export function validatePeriod(days: number | null | undefined, field = 'days'): number {
  const d = days ?? 30;
  if (!(LINK_PERIODS as readonly number[]).includes(d)) throw badInput('Choose a period of 7, 30 or 90 days.', field);
  return d;
}

export async function listLinks(
  services: Services,
  auth: AuthInfo,
  tourGlobalId: string,
  now = serverNow(services),
): Promise<SellerLinkRow[]> {
  const tour = await sellerReportTour(services, auth, tourGlobalId);
  return services.db
    .selectFrom('seller_report_links')
    .selectAll()
    .where('tour_id', '=', tour.id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute();
}

export async function createLink(
  services: Services,
  auth: AuthInfo,
  input: { tourId: string; days?: number | null; expiresInDays?: number | null },
  now = serverNow(services),
): Promise<{ link: SellerLinkRow; url: string }> {
  const tour = await sellerReportTour(services, auth, input.tourId);
  const days = validatePeriod(input.days);
  const expiresIn = input.expiresInDays ?? LINK_EXPIRY.defaultDays;
  if (!Number.isInteger(expiresIn) || expiresIn < LINK_EXPIRY.minDays || expiresIn > LINK_EXPIRY.maxDays) {
    throw badInput(`A link can stay valid for ${LINK_EXPIRY.minDays} to ${LINK_EXPIRY.maxDays} days.`, 'expiresInDays');
  }
  const token = `${TOKEN_PREFIX}${randomBytes(24).toString('base64url')}`;
  const link = await services.db
    .insertInto('seller_report_links')
    .values({
      tour_id: tour.id,
      company_id: tour.company_id,
      created_by: auth.userId,
      token_hash: hashToken(token),
      prefix: token.slice(0, SHOWN_PREFIX_LENGTH),
      days,
      expires_at: new Date(now.getTime() + expiresIn * DAY_MS),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { link, url: sellerReportUrl(services, token) };
}

export async function revokeLink(services: Services, auth: AuthInfo, linkId: string): Promise<SellerLinkRow> {
  const db = services.db;
  const id = decodeLinkId(linkId);
  const row = await db.selectFrom('seller_report_links').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || row.company_id !== auth.companyId) throw notFound('This report link was not found.');
  await sellerReportTour(services, auth, encodeId('Tour', row.tour_id));
  const revoked = await db
    .updateTable('seller_report_links')
    .set({ revoked_at: new Date() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!revoked) throw notFound('This report link was revoked already.');
  return revoked;
}

/** The link a token names, when it is still valid (not revoked, not expired, its tour not deleted). */
export async function linkByToken(
  services: Services,
  token: string,
  now = serverNow(services),
): Promise<SellerLinkRow> {
  if (typeof token !== 'string' || !token.startsWith(TOKEN_PREFIX) || token.length > 100)
    throw notFound(LINK_NOT_FOUND_TEXT);
  const row = await services.db
    .selectFrom('seller_report_links as l')
    .innerJoin('tours as t', 't.id', 'l.tour_id')
    .selectAll('l')
    .where('l.token_hash', '=', hashToken(token))
    .where('t.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row || row.revoked_at || row.expires_at.getTime() <= now.getTime()) throw notFound(LINK_NOT_FOUND_TEXT);
  // A company whose plan no longer includes Tour Analytics shares no figures (the link works again after an upgrade).
  if (!(await hasAnalyticsPlan(services.db, row.company_id, now))) throw notFound(LINK_NOT_FOUND_TEXT);
  return row;
}

export const encodeLinkId = (id: string) => encodeTypedId('SellerReportLink', id);
const decodeLinkId = (globalId: string) =>
  decodeTypedId('SellerReportLink', globalId, 'This report link was not found.');
