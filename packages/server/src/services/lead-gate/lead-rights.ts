/**
 * Who sees and decides on a tour's leads (docs/access-and-privacy.md, "Who decides on leads"). The spec's roles are a
 * company admin, who manages the team, and a standard user (USER), who works on their own tours; editing a tour is
 * its owner's or an admin's (services/tours.ts assertCanEdit). Leads follow the same rule: a company admin (and an API
 * key, which acts as its company; and a super admin) sees, approves and revokes every lead of the company; a standard
 * member only the leads of the tours they own. A lead someone may not see is answered as not found.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { AuthInfo } from '../../core/auth.js';
import type { Database } from '../../db/types.js';

/** Whether the caller's rights over leads reach every lead of their company. */
const seesCompanyLeads = (auth: AuthInfo) => auth.isCompanyAdmin || auth.apiKeyId !== undefined;

/** Whether the caller may see and decide on the leads of this tour. */
export function mayManageLeadsOf(auth: AuthInfo, tour: { company_id: string; owner_id: string | null }): boolean {
  if (auth.isSuperAdmin) return true;
  if (tour.company_id !== auth.companyId) return false;
  return seesCompanyLeads(auth) || tour.owner_id === auth.userId;
}

/** The same rule as a WHERE on a query joined to `tours`. */
export function leadScope(eb: ExpressionBuilder<Database, 'tours'>, auth: AuthInfo) {
  const company = eb('tours.company_id', '=', auth.companyId);
  return seesCompanyLeads(auth) ? company : eb.and([company, eb('tours.owner_id', '=', auth.userId)]);
}

/** Whether the caller may see and decide on the leads of the tour with this id (false for an unknown tour). */
export async function mayManageLeadsOfTour(db: Kysely<Database>, auth: AuthInfo, tourId: string): Promise<boolean> {
  const tour = await db
    .selectFrom('tours')
    .select(['company_id', 'owner_id'])
    .where('id', '=', tourId)
    .executeTakeFirst();
  return tour !== undefined && mayManageLeadsOf(auth, tour);
}
