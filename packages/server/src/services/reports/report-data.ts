/**
 * The two business reports (Reports page), read from real data: "Tours By Company" (every tour with
 * owner, status, created date and views) and "User Summary" (per member: monthly active and uploaded tours, views,
 * top tours). Plans with Tour Analytics get visit columns too.
 *
 * One definition across cards, the API and both reports: a view is a visit — one visitor's visit to a tour reported by
 * the player, counted once per visitor per tour per 30 minutes (services/reports/analytics.ts). `tours.views` is that
 * count, so the reports' views and the analytics' visits never disagree; headers and notes say what each column counts.
 */
import { countOf } from '@roomwalk/shared';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/types.js';
import { currentPeriodStart, getLicense } from '../licenses.js';
import { analyticsByTour, tourAnalytics } from './analytics.js';
import { visitSeconds } from './visit-writer.js';
import { MAX_REPORT_ROWS, type ReportColumn, type ReportTable } from './report-table.js';

export interface ReportOptions {
  companyId: string;
  /** Include visit analytics (Basic and higher). */
  analytics: boolean;
  /** The server's clock (core/clock.ts serverNow): the report's period ends at it. */
  now: Date;
  maxRows?: number;
}

/** What a view is, printed under both reports. */
const VIEWS_NOTE =
  'A view is a visit: one visitor opening the tour in the player, counted once per visitor per tour per 30 minutes.';

const fullName = (name: string | null, surname: string | null, email: string) =>
  [name, surname].filter(Boolean).join(' ').trim() || email;

async function heading(db: Kysely<Database>, companyId: string, now: Date) {
  const company = await db.selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirstOrThrow();
  const license = await getLicense(db, companyId);
  const periodStart = license
    ? currentPeriodStart(license, now)
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { companyName: company.name, periodStart, periodEnd: now, generatedAt: now };
}

export async function toursByCompany(db: Kysely<Database>, opts: ReportOptions): Promise<ReportTable> {
  const { now } = opts;
  const max = opts.maxRows ?? MAX_REPORT_ROWS;
  const head = await heading(db, opts.companyId, now);
  const tours = await db
    .selectFrom('tours as t')
    .innerJoin('users as u', 'u.id', 't.owner_id')
    .leftJoin('user_profiles as p', 'p.user_id', 'u.id')
    .select([
      't.id',
      't.title',
      't.status',
      't.deactivated_at',
      't.created_at',
      't.views',
      'u.username',
      'p.name',
      'p.surname',
    ])
    .where('t.company_id', '=', opts.companyId)
    .where('t.deleted_at', 'is', null)
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(max)
    .execute();
  const agg = await db
    .selectFrom('tours')
    .select([sql<number>`count(*)::int`.as('n'), sql<number>`coalesce(sum(views), 0)::bigint`.as('views')])
    .where('company_id', '=', opts.companyId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  const total = Number(agg.n);

  const columns: ReportColumn[] = [
    { key: 'title', header: 'Tour', kind: 'text', width: 2.6 },
    { key: 'owner', header: 'Owner', kind: 'text', width: 1.6 },
    { key: 'ownerEmail', header: 'Owner email', kind: 'text', width: 2.2 },
    { key: 'status', header: 'Status', kind: 'text', width: 1.3 },
    { key: 'created', header: 'Created', kind: 'date', width: 1.2 },
    { key: 'views', header: 'Views (visits)', kind: 'int', width: 0.9 },
  ];
  if (opts.analytics) {
    columns.push(
      { key: 'visitors', header: 'Unique visitors', kind: 'int', width: 0.9 },
      { key: 'avgSeconds', header: 'Avg. seconds per visit', kind: 'decimal', width: 1.2 },
      { key: 'avgRooms', header: 'Avg. rooms per visit', kind: 'decimal', width: 1.1 },
    );
  }
  const perTour = opts.analytics
    ? await analyticsByTour(
        db,
        tours.map((t) => t.id),
      )
    : new Map();
  const rows = tours.map((t) => {
    const a = perTour.get(t.id);
    return {
      title: t.title || '(untitled)',
      owner: fullName(t.name, t.surname, t.username),
      ownerEmail: t.username,
      status: t.deactivated_at ? 'DEACTIVATED' : t.status,
      created: new Date(t.created_at),
      views: t.views,
      ...(opts.analytics
        ? {
            visitors: a?.uniqueVisitors ?? 0,
            avgSeconds: a?.averageSecondsSpent ?? 0,
            avgRooms: a?.averageRoomsReached ?? 0,
          }
        : {}),
    };
  });
  const totals: ReportTable['totals'] = { title: `Total: ${countOf(total, 'tour')}`, views: Number(agg.views) };
  if (opts.analytics) {
    const all = await tourAnalytics(db, { companyId: opts.companyId });
    Object.assign(totals, {
      visitors: all.uniqueVisitors,
      avgSeconds: all.averageSecondsSpent,
      avgRooms: all.averageRoomsReached,
    });
  }
  const notes = [VIEWS_NOTE, 'Views are lifetime totals; deleted tours are not listed.'];
  if (opts.analytics)
    notes.push(
      'Unique visitors are anonymous browsers, counted once per tour (a visitor who declined cookies counts once per visit).',
    );
  if (total > rows.length) notes.push(`Showing the newest ${rows.length} of ${total} tours; totals cover all of them.`);
  return { title: 'Tours By Company', ...head, columns, rows, totals, notes };
}

export async function userSummary(db: Kysely<Database>, opts: ReportOptions): Promise<ReportTable> {
  const { now } = opts;
  const max = opts.maxRows ?? MAX_REPORT_ROWS;
  const head = await heading(db, opts.companyId, now);
  const since = head.periodStart;
  const companyId = opts.companyId;
  const users = await db
    .selectFrom('users as u')
    .leftJoin('user_profiles as p', 'p.user_id', 'u.id')
    .select(['u.id', 'u.username', 'u.role', 'p.name', 'p.surname'])
    .where('u.company_id', '=', companyId)
    .orderBy('u.created_at')
    .orderBy('u.id')
    .limit(max)
    .execute();
  const userCount = Number(
    (
      await db
        .selectFrom('users')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow()
    ).n,
  );

  const toMap = <T extends { k: string }>(rows: T[]) => new Map(rows.map((r) => [r.k, r]));
  /** One figure per tour owner over the company's tours that pass `only`. */
  const perOwner = async (
    value: RawBuilder<number>,
    only: (eb: ExpressionBuilder<Database, 'tours'>) => Expression<SqlBool>,
  ) =>
    toMap(
      await db
        .selectFrom('tours')
        .select(['owner_id as k', value.as('n')])
        .where('company_id', '=', companyId)
        .where(only)
        .groupBy('owner_id')
        .execute(),
    );
  const active = await perOwner(sql<number>`count(*)::int`, (eb) =>
    eb.and([eb('deleted_at', 'is', null), eb('deactivated_at', 'is', null), eb('status', '!=', 'FAILED')]),
  );
  const uploads = toMap(
    await db
      .selectFrom('uploads')
      .select(['user_id as k', sql<number>`count(*)::int`.as('n')])
      .where('company_id', '=', companyId)
      .where('submitted_at', '>=', since)
      .groupBy('user_id')
      .execute(),
  );
  const views = await perOwner(sql<number>`coalesce(sum(views), 0)::bigint`, (eb) => eb('deleted_at', 'is', null));
  const deletedViews = await perOwner(sql<number>`coalesce(sum(views + deactivated_views), 0)::bigint`, (eb) =>
    eb.or([eb('deleted_at', 'is not', null), eb('deactivated_at', 'is not', null)]),
  );
  const top = await sql<{ owner_id: string; title: string | null; views: number }>`
    SELECT owner_id, title, views FROM (
      SELECT owner_id, title, views, row_number() OVER (PARTITION BY owner_id ORDER BY views DESC, created_at DESC, id DESC) AS rn
      FROM tours WHERE company_id = ${companyId} AND deleted_at IS NULL AND status = 'PROCESSED'
    ) ranked WHERE rn <= 5 ORDER BY owner_id, rn`.execute(db);
  const topByOwner = new Map<string, string[]>();
  for (const t of top.rows) {
    const list = topByOwner.get(t.owner_id) ?? [];
    list.push(`${t.title || '(untitled)'} (${t.views})`);
    topByOwner.set(t.owner_id, list);
  }
  const visitsByOwner = opts.analytics
    ? toMap(
        await db
          .selectFrom('view_events as v')
          .innerJoin('tours as t', 't.id', 'v.tour_id')
          .select([
            't.owner_id as k',
            sql<number>`count(*)::int`.as('visits'),
            sql<number>`coalesce(avg(${visitSeconds('v')}), 0)::float8`.as('avg'),
          ])
          .where('v.company_id', '=', companyId)
          .where('t.deleted_at', 'is', null)
          .where('v.started_at', '>=', since)
          .groupBy('t.owner_id')
          .execute(),
      )
    : new Map<string, { visits: number; avg: number }>();

  const columns: ReportColumn[] = [
    { key: 'name', header: 'Name', kind: 'text', width: 1.6 },
    { key: 'email', header: 'Email', kind: 'text', width: 2.2 },
    { key: 'role', header: 'Role', kind: 'text', width: 1.4 },
    { key: 'activeTours', header: 'Monthly active tours', kind: 'int', width: 1.2 },
    { key: 'uploadedTours', header: 'Monthly uploaded tours', kind: 'int', width: 1.3 },
    { key: 'views', header: 'Total views', kind: 'int', width: 0.9 },
    { key: 'deletedViews', header: 'Deleted tour views', kind: 'int', width: 1.1 },
    { key: 'topTours', header: 'Top performing tours', kind: 'text', width: 3.2 },
  ];
  if (opts.analytics) {
    columns.push(
      { key: 'visits', header: 'Visits this month', kind: 'int', width: 1.1 },
      { key: 'avgSeconds', header: 'Avg. seconds per visit', kind: 'decimal', width: 1.1 },
    );
  }
  const num = (m: Map<string, { k: string; n: number }>, id: string) => Number(m.get(id)?.n ?? 0);
  const rows = users.map((u) => ({
    name: fullName(u.name, u.surname, u.username),
    email: u.username,
    role: u.role === 'ADMIN' ? 'Admin User' : 'Standard User',
    activeTours: num(active, u.id),
    uploadedTours: num(uploads, u.id),
    views: num(views, u.id),
    deletedViews: num(deletedViews, u.id),
    topTours: (topByOwner.get(u.id) ?? []).join('; '),
    ...(opts.analytics
      ? {
          visits: Number(visitsByOwner.get(u.id)?.visits ?? 0),
          avgSeconds: Math.round(Number(visitsByOwner.get(u.id)?.avg ?? 0) * 10) / 10,
        }
      : {}),
  }));
  const sum = (m: Map<string, { n: number }>) => [...m.values()].reduce((s, r) => s + Number(r.n), 0);
  const totals: ReportTable['totals'] = {
    name: `Total: ${countOf(userCount, 'user')}`,
    activeTours: sum(active),
    uploadedTours: sum(uploads),
    views: sum(views),
    deletedViews: sum(deletedViews),
  };
  if (opts.analytics) {
    const all = await tourAnalytics(db, { companyId, since });
    Object.assign(totals, { visits: all.visits, avgSeconds: all.averageSecondsSpent });
  }
  const notes = [
    VIEWS_NOTE,
    'Monthly figures count from the start of the current billing month; views are lifetime totals.',
  ];
  if (userCount > rows.length)
    notes.push(`Showing the first ${rows.length} of ${userCount} users; totals cover all of them.`);
  return { title: 'User Summary', ...head, columns, rows, totals, notes };
}
