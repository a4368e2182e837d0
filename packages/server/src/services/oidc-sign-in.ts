/** Sign-in with an OpenID Connect issuer (Google or any issuer of OIDC_*): find, link or create the account. */
import { sql } from 'kysely';
import { ERROR_CODES, ERROR_TEXTS, emailField } from '@roomwalk/shared';
import type { UserRow } from '../db/types.js';
import type { OidcIdentity } from '../auth/oidc.js';
import { AppError } from '../core/errors.js';
import { serverNow } from '../core/clock.js';
import { consumeRateLimit } from '../auth/rate-limit.js';
import {
  createAccount,
  findUserByEmail,
  grantFreeTrialIfUnlicensed,
  inAccountTransaction,
  parseInput,
} from './accounts.js';
import type { Services } from './services.js';

export class OidcSignInRefused extends Error {
  override name = 'OidcSignInRefused';
}

/**
 * The account for an issuer identity, keyed by (issuer, subject). An existing password account with the same,
 * issuer-verified email is linked once; otherwise a new account (with its company, activated at once because the
 * issuer proved the address) is created, which needs the human check like any sign-up.
 */
export async function signInWithOidc(
  services: Services,
  identity: OidcIdentity,
  extras: { inviteToken?: string | null | undefined; referredBy?: string | null | undefined },
  humanToken: string | null | undefined,
  ip: string,
): Promise<UserRow> {
  const byKey = await services.db
    .selectFrom('users')
    .selectAll()
    .where('oidc_issuer', '=', identity.issuer)
    .where('oidc_subject', '=', identity.subject)
    .executeTakeFirst();
  if (byKey) return byKey;
  if (!identity.email || !identity.emailVerified)
    throw new OidcSignInRefused('the issuer did not give a verified email');
  const email = parseInput(emailField, identity.email);
  const byEmail = await findUserByEmail(services.db, email);
  if (byEmail) {
    if (byEmail.oidc_subject) throw new OidcSignInRefused('the email belongs to an account linked to another identity');
    return services.db.transaction().execute(async (trx) => {
      const linked = await trx
        .updateTable('users')
        .set({
          oidc_issuer: identity.issuer,
          oidc_subject: identity.subject,
          activated_at: sql`coalesce(activated_at, now())`,
        })
        .where('id', '=', byEmail.id)
        .where('oidc_subject', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (!linked) throw new OidcSignInRefused('the account was linked meanwhile');
      await grantFreeTrialIfUnlicensed(trx, linked.company_id, serverNow(services));
      return linked;
    });
  }
  await consumeRateLimit(services, 'userRegister', ip);
  if (!(await services.humanCheck.verify(humanToken, ip)))
    throw new AppError(ERROR_CODES.HUMAN_CHECK_FAILED, ERROR_TEXTS.humanCheckFailed);
  const fallback = email.split('@')[0]!;
  const [first, ...rest] = (identity.name ?? '').split(/\s+/).filter(Boolean);
  const name = (identity.givenName ?? first ?? fallback).slice(0, 30);
  const surname = (identity.familyName ?? (rest.join(' ') || '-')).slice(0, 30);
  return inAccountTransaction(services, (trx) =>
    createAccount(trx, {
      email,
      passwordHash: null,
      name,
      surname,
      contactNumber: null,
      referredBy: extras.referredBy ?? null,
      inviteToken: extras.inviteToken ?? null,
      activated: true,
      oidc: { issuer: identity.issuer, subject: identity.subject },
      now: serverNow(services),
    }),
  );
}
