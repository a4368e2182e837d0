/**
 * The signed links of a person's data: the export download, the mailed confirmation of an account deletion (accounts
 * without a password) and a visitor's request to delete their lead. Each is an HMAC (key derived from JWT_SECRET, apart
 * from tour access's) over a purpose, the row it names and, when it expires, the expiry: nothing is stored for them,
 * and rotating JWT_SECRET voids every link.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Services } from '../services.js';
import { serverNow } from '../../core/clock.js';

type Purpose = 'data-export' | 'account-deletion' | 'lead-erasure';

/** The links' key, derived from JWT_SECRET (one HMAC, cheaper than keeping it). */
const keyOf = (services: Services): Buffer =>
  createHmac('sha256', services.config.jwtSecret).update('personal-data').digest();

/** The signature of `purpose` for `id` (and `expires`, seconds since the epoch, when the link expires). */
function signLink(services: Services, purpose: Purpose, id: string, expires?: number): string {
  return createHmac('sha256', keyOf(services))
    .update(`${purpose}\n${id}\n${expires ?? ''}`)
    .digest('base64url');
}

export type LinkCheck = 'valid' | 'expired' | 'invalid';

/**
 * Whether `signature` signs `purpose` for `id` (and `expires`). A well-signed link past its expiry answers 'expired',
 * so the page can say so instead of "invalid".
 */
export function checkLink(
  services: Services,
  purpose: Purpose,
  id: string,
  signature: unknown,
  expires?: unknown,
  nowMs = serverNow(services).getTime(),
): LinkCheck {
  if (typeof signature !== 'string' || signature.length > 100) return 'invalid';
  let e: number | undefined;
  if (expires !== undefined) {
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) return 'invalid';
    e = Number(expires);
  }
  const want = Buffer.from(signLink(services, purpose, id, e));
  const got = Buffer.from(signature);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return 'invalid';
  return e !== undefined && e * 1000 <= nowMs ? 'expired' : 'valid';
}

/** The download link of an export: works until `expiresAt`, then answers a page saying it expired. */
export function exportDownloadUrl(services: Services, exportId: string, expiresAt: Date): string {
  const e = Math.floor(expiresAt.getTime() / 1000);
  return `${services.config.publicUrl}/data-export/${exportId}?e=${e}&s=${signLink(services, 'data-export', exportId, e)}`;
}

/** The link in a visitor's receipt that asks to delete their lead (it works as long as the lead exists). */
export function leadErasureUrl(services: Services, leadId: string): string {
  return `${services.config.publicUrl}/lead-erasure/${leadId}?s=${signLink(services, 'lead-erasure', leadId)}`;
}

/** How long the mailed confirmation of an account deletion works. */
export const DELETION_CONFIRM_HOURS = 24;

/**
 * What a deletion confirmation signs besides its expiry: the account and the moment its sessions last ended
 * (`users.credentials_changed_at`, `stamp`). Confirming ends every session, so a link works once: posted again (after
 * the person cancelled by signing in, say) it no longer matches.
 */
export const deletionLinkSubject = (userId: string, stamp: string) => `${userId}\n${stamp}`;

/** The link that confirms the deletion of an account without a password (signed in with Google). */
export function deletionConfirmUrl(
  services: Services,
  userId: string,
  stamp: string,
  nowMs = serverNow(services).getTime(),
): string {
  const e = Math.floor(nowMs / 1000) + DELETION_CONFIRM_HOURS * 3600;
  const s = signLink(services, 'account-deletion', deletionLinkSubject(userId, stamp), e);
  return `${services.config.publicUrl}/account-deletion/${userId}?e=${e}&s=${s}`;
}
