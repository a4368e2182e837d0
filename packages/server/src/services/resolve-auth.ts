/** Bearer token → the caller, with company and roles read fresh from the database (plans and roles change). */
import type { AuthInfo } from '../core/auth.js';
import type { Services } from './services.js';
import { getLicense, rolesFor } from './licenses.js';

export async function resolveAuth(services: Services, header: string): Promise<AuthInfo | null> {
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!m) return null;
  const claims = await services.tokens.verify(m[1]!);
  if (!claims) return null;
  const user = await services.db.selectFrom('users').selectAll().where('id', '=', claims.sub).executeTakeFirst();
  if (!user) return null;
  // Column added by migration 0010; a password reset refuses every session issued before it.
  const changedAt = (user as { credentials_changed_at?: Date | string | null }).credentials_changed_at;
  if (changedAt && claims.iat < Math.floor(new Date(changedAt).getTime() / 1000)) return null;
  const license = await getLicense(services.db, user.company_id);
  return {
    userId: user.id,
    companyId: user.company_id,
    roles: rolesFor(user, license),
    isCompanyAdmin: user.role === 'ADMIN',
    isSuperAdmin: user.is_superadmin,
  };
}
