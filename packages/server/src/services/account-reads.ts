/**
 * What the account types read (User, UserProfile, Company, TeamInvite) for the GraphQL adapter: one query each, and
 * one for many users where a page of members asks the same of each (graphql/loaders.ts batches them per request).
 */
import { sql } from 'kysely';
import { ERROR_CODES, TOP_TOURS_PER_USER } from '@roomwalk/shared';
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
  return table === 'tours'
    ? sql<unknown>`(select created_at, id from tours where id = ${cursor})`
    : sql<unknown>`(select created_at, id from team_invites where id = ${cursor})`;
}

export function userById(services: Services, id: string): Promise<UserRow | undefined> {
  return services.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Users by id in one statement (a page of members). */
export async function usersByIds(services: Services, ids: readonly string[]): Promise<Map<string, UserRow>> {
  const rows = ids.length
    ? await services.db
        .selectFrom('users')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute()
    : [];
  return new Map(rows.map((u) => [u.id, u]));
}

export type UserProfile = ProfileRow & { email: string; company_id: string };

/** The profiles of users by user id, in one statement. */
export async function profilesOfUsers(services: Services, ids: readonly string[]): Promise<Map<string, UserProfile>> {
  if (!ids.length) return new Map();
  const rows = await services.db
    .selectFrom('user_profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .selectAll('p')
    .select(['u.username as email', 'u.company_id'])
    .where('p.user_id', 'in', [...ids])
    .execute();
  return new Map(rows.map((p) => [p.user_id, p]));
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
  return services.db
    .selectFrom('users')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('created_at')
    .execute();
}

export function inviteById(services: Services, id: string): Promise<InviteRow | undefined> {
  return services.db.selectFrom('team_invites').selectAll().where('id', '=', id).executeTakeFirst();
}

/** What a member's row on the Team page counts of their tours. */
export interface OwnerTourFigures {
  /** Tours that are neither deleted, deactivated nor failed (as `countActiveTours`). */
  activeTours: number;
  /** Views of the tours that still exist. */
  totalViews: number;
  /** Views of the deleted and deactivated tours. */
  deletedTourViews: number;
}

/** Each owner's tour figures, for many owners in one statement. */
export async function ownersTourFigures(
  services: Services,
  ownerIds: readonly string[],
): Promise<Map<string, OwnerTourFigures>> {
  if (!ownerIds.length) return new Map();
  const rows = await services.db
    .selectFrom('tours')
    .select([
      'owner_id',
      sql<number>`count(*) filter (where deleted_at is null and deactivated_at is null and status <> 'FAILED')::int`.as(
        'active',
      ),
      sql<number>`coalesce(sum(views) filter (where deleted_at is null), 0)::int`.as('views'),
      sql<number>`coalesce(sum(views + deactivated_views) filter (where deleted_at is not null or deactivated_at is not null), 0)::int`.as(
        'gone',
      ),
    ])
    .where('owner_id', 'in', [...ownerIds])
    .groupBy('owner_id')
    .execute();
  return new Map(
    rows.map((r) => [
      r.owner_id,
      { activeTours: Number(r.active), totalViews: Number(r.views), deletedTourViews: Number(r.gone) },
    ]),
  );
}

/**
 * Each owner's five most viewed processed tours (most viewed, then newest, first), for many owners in one statement.
 */
export async function ownersTopTours(services: Services, ownerIds: readonly string[]): Promise<Map<string, TourRow[]>> {
  const top = new Map<string, TourRow[]>(ownerIds.map((id) => [id, []]));
  if (!ownerIds.length) return top;
  const ranked = services.db
    .selectFrom('tours')
    .selectAll()
    .select(sql<number>`row_number() over (partition by owner_id order by views desc, created_at desc)`.as('rank'))
    .where('owner_id', 'in', [...ownerIds])
    .where('deleted_at', 'is', null)
    .where('status', '=', 'PROCESSED')
    .as('ranked');
  const rows = await services.db
    .selectFrom(ranked)
    .selectAll()
    .where('rank', '<=', TOP_TOURS_PER_USER)
    .orderBy('owner_id')
    .orderBy('rank')
    .execute();
  for (const { rank: _rank, ...tour } of rows) top.get(tour.owner_id)?.push(tour as unknown as TourRow);
  return top;
}

/**
 * One page of a company's invites: accepted ones (the members) for everyone in the company, pending ones (with their
 * addresses) for admins only; an address invited again is listed once, by its newest pending invite.
 */
export function teamInvitesPage(
  services: Services,
  companyId: string,
  admin: boolean,
  page: PageRequest,
): Promise<InviteRow[]> {
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
