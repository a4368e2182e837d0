/**
 * Who sees a tour (docs/access-and-privacy.md). The owner sets a public link (default), a password, or
 * company only in Tour Info; every public path asks `assertCanView` (the tour query, the visit beacon) or signs its
 * media URLs through `tourMediaUrl` (clips, posters, reels, photos), which the media route checks (http/media.ts).
 */
import {
  ERROR_CODES,
  ERROR_TEXTS,
  PLAYER_GATE_TEXTS,
  TOUR_ACCESS,
  VALIDATION,
  tourAccessInputSchema,
  type TourAccess,
} from '@roomwalk/shared';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import { takeRateLimit } from '../../auth/rate-limit.js';
import type { AuthInfo } from '../../core/auth.js';
import { AppError, badInput, fromZod, notFound } from '../../core/errors.js';
import { decodeId } from '../../core/ids.js';
import type { TourRow } from '../../db/types.js';
import { requestBranding } from '../branding.js';
import type { Services } from '../services.js';
import { loadEditableTour, viewPublicTour } from '../tours.js';
import { accessIndexOf, type TourAccessState } from './access-index.js';
import { mediaSignature, signGrant, verifyGrant } from './grants.js';
import { serverNow } from '../../core/clock.js';

export interface TourAccessSetInput {
  id: string;
  access: string;
  password?: string | null | undefined;
}

/** Tour Info's access choice. A new password (or a change of mode) revokes every grant and signed URL given before. */
export async function setTourAccess(services: Services, auth: AuthInfo, input: TourAccessSetInput): Promise<TourRow> {
  const tour = await loadEditableTour(services, auth, input.id);
  const parsed = tourAccessInputSchema.safeParse({ access: input.access, password: input.password });
  if (!parsed.success) throw fromZod(parsed.error.issues);
  const { access } = parsed.data;
  const password = access === TOUR_ACCESS.password && parsed.data.password ? parsed.data.password : null;
  if (access === TOUR_ACCESS.password && !password && !tour.access_password_hash)
    throw badInput(VALIDATION.tourPasswordNeeded, 'password');
  if (access === tour.access && !password) return tour;
  const hash =
    access !== TOUR_ACCESS.password ? null : password ? await hashPassword(password) : tour.access_password_hash;
  const row = await services.db
    .updateTable('tours')
    .set((eb) => ({
      access,
      access_password_hash: hash,
      access_version: eb('access_version', '+', 1),
      updated_at: new Date(),
    }))
    .where('id', '=', tour.id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound(ERROR_TEXTS.tourNotFound);
  accessIndexOf(services).changed(row.id);
  return row;
}

/** What the password screen may show before the password: the company's name and branding, nothing of the tour. */
export async function gateOf(services: Services, tour: Pick<TourRow, 'company_id'>) {
  const [company, branding] = await Promise.all([
    services.db.selectFrom('companies').select('name').where('id', '=', tour.company_id).executeTakeFirst(),
    requestBranding({}, services.db, tour.company_id, serverNow(services)),
  ]);
  return {
    companyName: company?.name ?? null,
    logoURL: branding?.logoKey ? services.storage.publicUrl(branding.logoKey) : null,
    accentColor: branding?.accentColor ?? null,
  };
}

/** The refusal of a protected tour: its code, and the gate (branding only) in the error's extensions. */
async function refusal(services: Services, tour: Pick<TourRow, 'company_id' | 'access'>): Promise<AppError> {
  const gate = await gateOf(services, tour);
  return tour.access === TOUR_ACCESS.company
    ? new AppError(ERROR_CODES.TOUR_MEMBERS_ONLY, PLAYER_GATE_TEXTS.tourMembersOnly, { gate })
    : new AppError(ERROR_CODES.TOUR_PASSWORD_REQUIRED, ERROR_TEXTS.tourPasswordRequired, { gate });
}

/** The columns the access checks read. */
type AccessOf = Pick<TourRow, 'id' | 'company_id' | 'access' | 'access_version'>;

/** Whether this caller may see the tour: public, a member of its company, or a live grant of a password tour. */
function mayView(services: Services, auth: AuthInfo | null, tour: AccessOf, grant: unknown): boolean {
  if (tour.access === TOUR_ACCESS.public) return true;
  if (auth && auth.companyId === tour.company_id) return true;
  return tour.access === TOUR_ACCESS.password && verifyGrant(services, tour.id, tour.access_version, grant);
}

/**
 * Throws TOUR_PASSWORD_REQUIRED or TOUR_MEMBERS_ONLY (with the company's branding) unless the caller may see the tour:
 * the tour query, and every public write about a tour (a lead left from its player).
 */
export async function assertCanView(
  services: Services,
  auth: AuthInfo | null,
  tour: AccessOf,
  grant: unknown,
): Promise<void> {
  if (!mayView(services, auth, tour, grant)) throw await refusal(services, tour);
}

/** The players' `tour(tourID, access)`: the public tour, once the caller may see it. */
export async function viewTour(
  services: Services,
  auth: AuthInfo | null,
  tourGlobalId: string,
  grant: unknown,
): Promise<TourRow> {
  const tour = await viewPublicTour(services, auth, tourGlobalId);
  await assertCanView(services, auth, tour, grant);
  return tour;
}

/**
 * The password screen: a right password answers a grant for this browser session. Every guess takes a point per
 * address and tour and per address (RATE_LIMITS.tourPassword, tourPasswordAddress: beyond them that address waits,
 * RATE_LIMITED) and per tour (tourPasswordTour: beyond it every guess at the tour needs a human check,
 * HUMAN_CHECK_FAILED until one passes, so many addresses guessing lock nobody else out); a right one gives them back.
 */
export async function unlockTour(
  services: Services,
  ip: string,
  tourGlobalId: string,
  password: string,
  humanToken?: string | null,
): Promise<{ access: string; expiresAt: Date }> {
  const id = decodeId('Tour', tourGlobalId);
  const tour = await services.db
    .selectFrom('tours')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!tour) throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.invalidLink);
  if (tour.access === TOUR_ACCESS.company) throw await refusal(services, tour);
  if (tour.access === TOUR_ACCESS.public) {
    const g = signGrant(services, tour.id, tour.access_version);
    return { access: g.token, expiresAt: g.expiresAt };
  }
  const perAddressTour = await takeRateLimit(services, 'tourPassword', `${ip}:${tour.id}`);
  const perAddress = await takeRateLimit(services, 'tourPasswordAddress', ip);
  if (!perAddressTour.taken || !perAddress.taken) {
    await Promise.all([perAddressTour.refund(), perAddress.refund()]);
    throw new AppError(ERROR_CODES.RATE_LIMITED, ERROR_TEXTS.rateLimited, {
      retryAfterSeconds: Math.max(perAddressTour.retryAfterSeconds, perAddress.retryAfterSeconds),
    });
  }
  // The tour's own budget spent (many addresses guessing): a guess now needs a human check, nobody is locked out.
  const perTour = await takeRateLimit(services, 'tourPasswordTour', tour.id);
  if (!perTour.taken && !(await services.humanCheck.verify(humanToken, ip))) {
    await Promise.all([perAddressTour.refund(), perAddress.refund()]);
    throw new AppError(
      ERROR_CODES.HUMAN_CHECK_FAILED,
      humanToken ? ERROR_TEXTS.humanCheckFailed : VALIDATION.humanCheckRequired,
      {
        humanCheck: true,
      },
    );
  }
  if (
    typeof password !== 'string' ||
    password.length > 1000 ||
    !(await verifyPassword(tour.access_password_hash, password))
  ) {
    throw new AppError(ERROR_CODES.TOUR_PASSWORD_WRONG, PLAYER_GATE_TEXTS.tourPasswordWrong);
  }
  await Promise.all([perAddressTour.refund(), perAddress.refund(), perTour.refund()]);
  const g = signGrant(services, tour.id, tour.access_version);
  return { access: g.token, expiresAt: g.expiresAt };
}

/**
 * The URL of a file of a tour (its clips, poster, reels, photos): public by key, or signed while the tour is protected.
 */
export function tourMediaUrl(
  services: Services,
  tour: { access: TourAccess; access_version: number },
  key: string,
): string {
  if (tour.access === TOUR_ACCESS.public) return services.storage.publicUrl(key);
  return `${services.config.publicUrl}/media/${key}?${mediaSignature(services, key, tour.access_version)}`;
}

/**
 * tourMediaUrl when only the tour's id is at hand (a clip, reel or photo row): its access from this node's index. A
 * clip past the lead gate is signed even on a public tour (only callers through the gate are given it).
 */
export function tourMediaUrlById(services: Services, tourId: string, key: string): string | Promise<string> {
  const index = accessIndexOf(services);
  const url = (state: TourAccessState | null) => {
    const access = state?.gated?.has(key) ? TOUR_ACCESS.password : (state?.access ?? TOUR_ACCESS.public);
    return tourMediaUrl(services, { access, access_version: state?.version ?? 0 }, key);
  };
  // Synchronous when the index knows the tour: a 250-clip tour's 500 URLs were 500 promises, about half of the
  // answer's CPU (test/hostile/graphql-cost.test.ts).
  const known = index.known(tourId);
  return known === undefined ? index.get(tourId).then(url) : url(known);
}
