/** Authorisation helpers used by every resolver: who is asking, and may they touch this company's object. */
import type { AuthInfo, Context } from './builder.js';
import { forbidden, notFound, unauthenticated } from './errors.js';

export function requireAuth(ctx: Context): AuthInfo {
  if (!ctx.auth) throw unauthenticated();
  return ctx.auth;
}

/** The caller must belong to the object's company; others get NOT_FOUND so ids cannot be probed. */
export function requireSameCompany(ctx: Context, companyId: string | null | undefined): AuthInfo {
  const auth = requireAuth(ctx);
  if (!companyId || companyId !== auth.companyId) throw notFound();
  return auth;
}

export function requireCompanyAdmin(ctx: Context): AuthInfo {
  const auth = requireAuth(ctx);
  if (!auth.isCompanyAdmin && !auth.isSuperAdmin) throw forbidden();
  return auth;
}

export function requireSuperAdmin(ctx: Context): AuthInfo {
  const auth = requireAuth(ctx);
  if (!auth.isSuperAdmin) throw forbidden();
  return auth;
}
