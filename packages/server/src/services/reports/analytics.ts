/**
 * Tour analytics (Basic and Pro: feature "Tour Analytics"): the player reports each visit with an anonymous visitor
 * id; one view_events row per visitor visit, kept up to date while the visit goes on. Free and Entry see counts only.
 *
 * One definition: a VIEW is a VISIT — one visitor's visit to a tour, reported by
 * the player's beacon (POST /tour-visit, or the tourViewRecord mutation), counted once per visitor per tour per 30
 * minutes. Opening a visit here is what adds 1 to `tours.views` (or `deactivated_views` while the tour is
 * deactivated), so a card's "N views", the reports' Views and the analytics' visits count the same thing. Answers of
 * the public `tour` query count nothing.
 */
import { assertVisitAllowed } from '../tour-access/visit-gate.js';
import { assertLinkVisit } from '../audience-links/link-visits.js';
import { sql, type Kysely } from 'kysely';
import { ERROR_CODES, ERROR_TEXTS, isBasicOrHigher, visitBeaconSchema, type VisitBeaconData } from '@roomwalk/shared';
import type { Database } from '../../db/types.js';
import { AppError, fromZod } from '../../core/errors.js';
import { decodeId } from '../../core/ids.js';
import { consumeRateLimit, takeRateLimit } from '../../auth/rate-limit.js';
import type { Services } from '../services.js';
import { summariseSegments } from './visit-rooms.js';
import { MAX_WAITING, visitSeconds, type VisitWrite } from './visit-writer.js';

/** Calls from one visitor to one tour within this gap belong to the same visit. */
export const VISIT_GAP_MS = 30 * 60 * 1000;

/**
 * Reads a beacon (POST /tour-visit's body, tourViewRecord's input) with the shared schema; BAD_USER_INPUT in the user's
 * words.
 */
export function parseVisitBeacon(raw: unknown): VisitBeaconData {
  const parsed = visitBeaconSchema.safeParse(raw);
  if (!parsed.success) throw fromZod(parsed.error.issues);
  return parsed.data;
}

/** Where a beacon came from: the client address (the socket's, or a trusted proxy's forwarded-for) and when. */
export interface VisitSource {
  ip: string;
  at?: Date;
}

/**
 * Records (or extends) a visit and waits for it to be written. Unknown and deleted tours are NOT_FOUND. Limits:
 * RATE_LIMITS.tourVisitVisitor beacons per visitor id, RATE_LIMITS.tourVisit per address (the ceiling over its
 * visitors), and RATE_LIMITS.visitOpen new visits per address and tour; a beacon beyond the second
 * still extends its visit, one that would open a visit is RATE_LIMITED and changes nothing. What the beacon claims is
 * kept plausible where it is written (visit-writer.ts: rooms of the tour, time since the visit's first beacon).
 */
export async function recordTourView(services: Services, beacon: VisitBeaconData, from: VisitSource): Promise<void> {
  // Per browser first (its id), then the address's ceiling: visitors behind one address are counted each.
  await consumeRateLimit(services, 'tourVisitVisitor', beacon.visitorId);
  await consumeRateLimit(services, 'tourVisit', from.ip);
  const tourUuid = decodeId('Tour', beacon.tourId);
  await assertVisitAllowed(services, tourUuid, beacon.access);
  // Through an audience link: counted under it, its hidden rooms never recorded (refused once it no longer opens).
  const link = beacon.link === undefined ? null : await assertLinkVisit(services, tourUuid, beacon.link);
  const segments =
    link?.hiddenRooms.size && beacon.segments
      ? beacon.segments.filter((s) => !link.hiddenRooms.has(s.room))
      : beacon.segments;
  const writer = services.visitWriter;
  // Written with the other beacons of the moment (visit-writer.ts); beyond a bound of waiting beacons, refused as busy.
  if (writer.waiting >= MAX_WAITING)
    throw new AppError(ERROR_CODES.RATE_LIMITED, ERROR_TEXTS.rateLimited, { retryAfterSeconds: 5 });
  // A point is taken before the write (so beacons at once cannot all open visits) and given back unless one opened.
  const open = await takeRateLimit(services, 'visitOpen', `${from.ip} ${tourUuid}`);
  const r = await writer.write(
    visitWrite(tourUuid, { ...beacon, segments }, from.at ?? new Date(), open.taken, link?.id ?? null),
  );
  if (!r.opened) await open.refund();
  if (!r.found) throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
  if (r.refused)
    throw new AppError(ERROR_CODES.RATE_LIMITED, ERROR_TEXTS.rateLimited, {
      retryAfterSeconds: open.retryAfterSeconds,
    });
  if (r.opened) services.viewCounter.add(tourUuid, r.deactivated);
}

/** Resolves when every visit taken so far is written. */
export async function settleVisits(services: Services): Promise<void> {
  await services.visitWriter.settled();
}

function visitWrite(
  tourUuid: string,
  beacon: VisitBeaconData,
  at: Date,
  mayOpen: boolean,
  audienceLinkId: string | null,
): VisitWrite {
  return {
    audienceLinkId,
    tourId: tourUuid,
    visitorId: beacon.visitorId,
    at,
    mayOpen,
    secondsSpent: beacon.secondsSpent,
    roomsReached: beacon.roomsReached,
    rooms: beacon.segments?.length ? summariseSegments(beacon.segments) : null,
    reachedEnd: beacon.reachedEnd ?? false,
    fastTravels: beacon.fastTravels ?? 0,
    device: beacon.device ?? null,
  };
}

/** A tour without visits. */
export const NO_VISITS: TourAnalytics = {
  visits: 0,
  uniqueVisitors: 0,
  totalSecondsSpent: 0,
  averageSecondsSpent: 0,
  averageRoomsReached: 0,
};

export interface TourAnalytics {
  visits: number;
  uniqueVisitors: number;
  totalSecondsSpent: number;
  averageSecondsSpent: number;
  averageRoomsReached: number;
}

export interface AnalyticsScope {
  companyId?: string;
  ownerId?: string;
  tourId?: string;
  since?: Date | null;
}

/** Aggregates over the visits of a company, an owner's tours or one tour (deleted tours left out). */
export async function tourAnalytics(db: Kysely<Database>, scope: AnalyticsScope): Promise<TourAnalytics> {
  let q = db
    .selectFrom('view_events as v')
    .innerJoin('tours as t', 't.id', 'v.tour_id')
    .where('t.deleted_at', 'is', null)
    .select([
      sql<number>`count(*)::int`.as('visits'),
      sql<number>`count(DISTINCT v.visitor_id)::int`.as('unique_visitors'),
      sql<number>`coalesce(sum(${visitSeconds('v')}), 0)::bigint`.as('seconds'),
      sql<number>`coalesce(avg(${visitSeconds('v')}), 0)::float8`.as('avg_seconds'),
      sql<number>`coalesce(avg(v.rooms_reached), 0)::float8`.as('avg_rooms'),
    ]);
  if (scope.companyId) q = q.where('v.company_id', '=', scope.companyId);
  if (scope.ownerId) q = q.where('t.owner_id', '=', scope.ownerId);
  if (scope.tourId) q = q.where('v.tour_id', '=', scope.tourId);
  if (scope.since) q = q.where('v.started_at', '>=', scope.since);
  const r = await q.executeTakeFirstOrThrow();
  return {
    visits: Number(r.visits),
    uniqueVisitors: Number(r.unique_visitors),
    totalSecondsSpent: Number(r.seconds),
    averageSecondsSpent: round1(Number(r.avg_seconds)),
    averageRoomsReached: round1(Number(r.avg_rooms)),
  };
}

/**
 * Per-tour aggregates for a set of tours (reports, a page of tours), visits since `since` when given; tours without any
 * are absent.
 */
export async function analyticsByTour(
  db: Kysely<Database>,
  tourIds: readonly string[],
  since?: Date | null,
): Promise<Map<string, TourAnalytics>> {
  const out = new Map<string, TourAnalytics>();
  if (tourIds.length === 0) return out;
  let q = db.selectFrom('view_events').where('tour_id', 'in', tourIds as string[]);
  if (since) q = q.where('started_at', '>=', since);
  const rows = await q
    .groupBy('tour_id')
    .select([
      'tour_id',
      sql<number>`count(*)::int`.as('visits'),
      sql<number>`count(DISTINCT visitor_id)::int`.as('unique_visitors'),
      sql<number>`coalesce(sum(${visitSeconds('view_events')}), 0)::bigint`.as('seconds'),
      sql<number>`coalesce(avg(${visitSeconds('view_events')}), 0)::float8`.as('avg_seconds'),
      sql<number>`coalesce(avg(rooms_reached), 0)::float8`.as('avg_rooms'),
    ])
    .execute();
  for (const r of rows) {
    out.set(r.tour_id, {
      visits: Number(r.visits),
      uniqueVisitors: Number(r.unique_visitors),
      totalSecondsSpent: Number(r.seconds),
      averageSecondsSpent: round1(Number(r.avg_seconds)),
      averageRoomsReached: round1(Number(r.avg_rooms)),
    });
  }
  return out;
}

/** Whether the caller's plan includes Tour Analytics (Basic, Pro, Offline License). */
export const canSeeAnalytics = (roles: readonly string[] | null | undefined): boolean => isBasicOrHigher(roles);

const round1 = (n: number) => Math.round(n * 10) / 10;
