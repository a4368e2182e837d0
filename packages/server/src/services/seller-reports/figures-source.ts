/**
 * The figures of a seller report: the last `days` whole UTC days up to `now`, read as the tourAnalytics query reads
 * them.
 */
import type { Services } from '../services.js';
import { periodDays, roomAnalytics, type TourRoomAnalytics } from '../reports/room-analytics.js';
import type { SellerReportSubject } from './figures.js';
import { serverNow } from '../../core/clock.js';
import { addDays, DAY_MS, dayStart } from '../../core/days.js';

export async function readSellerFigures(
  services: Services,
  tourId: string,
  days: number,
  now = serverNow(services),
  /** Only the visits through this audience link (its id). */
  linkId: string | null = null,
): Promise<{ figures: TourRoomAnalytics; from: Date; to: Date }> {
  const from = new Date(now.getTime() - (days - 1) * DAY_MS);
  const period = periodDays(from, now, now);
  const figures = await roomAnalytics(services.db, tourId, period, linkId);
  return {
    figures,
    from: dayStart(period.from),
    to: dayStart(addDays(period.to, 1)),
  };
}

/**
 * The tour's title, its company and the agent who owns it, for the report's heading; with `linkId`, the label of the
 * audience link whose visits the report shows.
 */
export async function readSubject(
  services: Services,
  tourId: string,
  period: { from: Date; to: Date },
  linkId: string | null = null,
): Promise<SellerReportSubject & { ownerEmail: string }> {
  const link = linkId
    ? await services.db
        .selectFrom('audience_links')
        .select('label')
        .where('id', '=', linkId)
        .where('tour_id', '=', tourId)
        .executeTakeFirst()
    : undefined;
  const row = await services.db
    .selectFrom('tours')
    .innerJoin('companies', 'companies.id', 'tours.company_id')
    .innerJoin('users', 'users.id', 'tours.owner_id')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'users.id')
    .select([
      'tours.title',
      'companies.name as company',
      'user_profiles.name',
      'user_profiles.surname',
      'users.username',
    ])
    .where('tours.id', '=', tourId)
    .executeTakeFirstOrThrow();
  return {
    tourTitle: row.title ?? '',
    companyName: row.company ?? '',
    agentName: [row.name, row.surname].filter(Boolean).join(' '),
    ownerEmail: row.username,
    from: period.from,
    to: period.to,
    ...(link ? { audienceLinkLabel: link.label } : {}),
  };
}
