/** Bearer token → the caller, with company and roles read fresh from the database (plans and roles change). */
import type { AuthInfo } from '../core/auth.js';
import { credentialsStamp } from '../auth/tokens.js';
import type { Services } from './services.js';
import { getLicense, rolesFor } from './licenses.js';
import { authenticateApiKey, isApiKeyToken } from './developer/api-keys.js';
import { serverNow } from '../core/clock.js';

/** API keys are taken only where `allowApiKey` is set (GraphQL over HTTP on /query); elsewhere a key is no session. */
export async function resolveAuth(
  services: Services,
  header: string,
  opts: { allowApiKey?: boolean } = {},
): Promise<AuthInfo | null> {
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!m) return null;
  // An API key (rw_live_…) acts as its company; may throw PLAN_REQUIRED when the plan no longer includes the API.
  if (isApiKeyToken(m[1]!)) return opts.allowApiKey ? authenticateApiKey(services, m[1]!) : null;
  const claims = await services.tokens.verify(m[1]!);
  if (!claims) return null;
  const user = await services.db
    .selectFrom('users')
    .leftJoin('account_deletions', 'account_deletions.user_id', 'users.id')
    .selectAll('users')
    .select('account_deletions.user_id as leaving')
    .where('users.id', '=', claims.sub)
    .executeTakeFirst();
  // An account waiting out its deletion has no session: signing in again (which cancels the deletion) gives one.
  if (!user || user.leaving) return null;
  // Column added by migration 0010: a password reset or a deletion request refuses every session issued before it. A
  // session names the value it was issued under (exact, whatever the clocks: one issued in the same second as the
  // change, before it, stays refused after a cancelled deletion); one that names none is compared by whole seconds.
  const changedAt = (user as { credentials_changed_at?: Date | string | null }).credentials_changed_at;
  if (
    claims.cca !== null
      ? claims.cca !== credentialsStamp(changedAt)
      : changedAt && claims.iat < Math.floor(credentialsStamp(changedAt) / 1000)
  )
    return null;
  const license = await getLicense(services.db, user.company_id);
  return {
    userId: user.id,
    companyId: user.company_id,
    roles: rolesFor(user, license, serverNow(services)),
    isCompanyAdmin: user.role === 'ADMIN',
    isSuperAdmin: user.is_superadmin,
  };
}
