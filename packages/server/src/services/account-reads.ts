/** What the account types read (User, UserProfile, Company, TeamInvite) for the GraphQL adapter; one query each. */
import { sql } from 'kysely';
import { ERROR_CODES } from '@roomwalk/shared';
import type { CompanyRow, InviteRow, ProfileRow, TourRow, UserRow } from '../db/types.js';
import { AppError } from '../core/errors.js';
import type { Services } from './services.js';

/** One page of a connection, as Pothos' resolveCursorConnection asks for it (cursors are row ids). */
export interface PageRequest {
  after?: string | undefined;
  before?: string | undefined;
  limit: number;
  inverted: boolean;
}

/** The SQL row value (created_at, id) of the row a cursor names, so microsecond timestamps page exactly. */
export function cursorRow(table: 'tours' | 'team_invites', cursor: string) {
  if (!/^[0-9a-f-]{36}$/i.test(cursor)) throw new AppError(ERROR_CODES.BAD_USER_INPUT, 'Not a valid cursor.');
  return table === 'tours' ? sql<unknown>`(select created_at, id from tours where id = ${cursor})` : sql<unknown>`(select created_at, id from team_invites where id = ${cursor})`;
}

export function userById(services: Services, id: string): Promise<UserRow | undefined> {
  return services.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export type UserProfile = ProfileRow & { email: string; company_id: string };

export async function profileOfUser(services: Services, user: UserRow): Promise<UserProfile | null> {
  const p = await services.db.selectFrom('user_profiles').selectAll().where('user_id', '=', user.id).executeTakeFirst();
  return p ? { ...p, email: user.username, company_id: user.company_id } : null;
}

/** A profile by its own id, with its user's email and company (node(id)). */
export function profileById(services: Services, id: string): Promise<UserProfile | undefined> {
  return services.db
    .selectFrom('user_profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .selectAll('p')
    .select(['u.username as email', 'u.company_id'])
    .where('p.id', '=', id)
    .executeTakeFirst();
}

export async function companyById(services: Services, id: string): Promise<CompanyRow | null> {
  return (await services.db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export function companyMembers(services: Services, companyId: string): Promise<UserRow[]> {
  return services.db.selectFrom('users').selectAll().where('company_id', '=', companyId).orderBy('created_at').execute();
}

export function inviteById(services: Services, id: string): Promise<InviteRow | undefined> {
  return services.db.selectFrom('team_invites').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Views of all the user's tours that still exist. */
export async function userTourViews(services: Services, userId: string): Promise<number> {
  return (await services.db.selectFrom('tours').select(sql<number>`coalesce(sum(views),0)::int`.as('n')).where('owner_id', '=', userId).where('deleted_at', 'is', null).executeTakeFirstOrThrow()).n;
}

/** Views of the user's deleted and deactivated tours. */
export async function userDeletedTourViews(services: Services, userId: string): Promise<number> {
  return (
    await services.db
      .selectFrom('tours')
      .select(sql<number>`coalesce(sum(views + deactivated_views),0)::int`.as('n'))
      .where('owner_id', '=', userId)
      .where((eb) => eb.or([eb('deleted_at', 'is not', null), eb('deactivated_at', 'is not', null)]))
      .executeTakeFirstOrThrow()
  ).n;
}

/** The user's five most viewed processed tours. */
export function userTopTours(services: Services, userId: string): Promise<TourRow[]> {
  return services.db
    .selectFrom('tours')
    .selectAll()
    .where('owner_id', '=', userId)
    .where('deleted_at', 'is', null)
    .where('status', '=', 'PROCESSED')
    .orderBy('views', 'desc')
    .orderBy('created_at', 'desc')
    .limit(5)
    .execute() as Promise<TourRow[]>;
}

/**
 * One page of a company's invites: accepted ones (the members) for everyone in the company, pending ones (with their
 * addresses) for admins only; an address invited again is listed once, by its newest pending invite.
 */
export function teamInvitesPage(services: Services, companyId: string, admin: boolean, page: PageRequest): Promise<InviteRow[]> {
  let q = services.db
    .selectFrom('team_invites as i')
    .selectAll('i')
    .where('i.company_id', '=', companyId)
    .where('i.revoked_at', 'is', null)
    .where(
      sql<boolean>`(i.accepted or not exists (select 1 from team_invites n where n.company_id = i.company_id and lower(n.email) = lower(i.email) and not n.accepted and n.revoked_at is null and (n.created_at, n.id) > (i.created_at, i.id)))`,
    );
  if (!admin) q = q.where('i.accepted', '=', true);
  if (page.after) q = q.where(sql<boolean>`(i.created_at, i.id) > ${cursorRow('team_invites', page.after)}`);
  if (page.before) q = q.where(sql<boolean>`(i.created_at, i.id) < ${cursorRow('team_invites', page.before)}`);
  return q
    .orderBy('i.created_at', page.inverted ? 'desc' : 'asc')
    .orderBy('i.id', page.inverted ? 'desc' : 'asc')
    .limit(page.limit)
    .execute();
}
