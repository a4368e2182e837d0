/**
 * Tour analytics (Basic and Pro: feature "Tour Analytics"): the player reports each visit with an anonymous visitor
 * id; one view_events row per visitor visit, kept up to date while the visit goes on. Free and Entry see counts only.
 *
 * One definition (issue 15 item 8, issue 16 item 11): a VIEW is a VISIT — one visitor's visit to a tour, reported by
 * the player's beacon (POST /tour-visit, or the tourViewRecord mutation), counted once per visitor per tour per 30
 * minutes. Opening a visit here is what adds 1 to `tours.views` (or `deactivated_views` while the tour is
 * deactivated), so a card's "N views", the reports' Views and the analytics' visits count the same thing. Answers of
 * the public `tour` query count nothing.
 */
import { sql, type Kysely } from 'kysely';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import { ERROR_CODES, ERROR_TEXTS, isBasicOrHigher, TOUR_STATUS } from '@roomwalk/shared';
import type { Database } from '../../db/types.js';
import { AppError, fromZod } from '../../core/errors.js';
import type { Services } from '../services.js';
import { billingDb } from '../billing/tables.js';
import { viewCounter } from '../view-counter.js';
import { summariseSegments, VisitRoomsSchema } from './visit-rooms.js';

/** Calls from one visitor to one tour within this gap belong to the same visit. */
export const VISIT_GAP_MS = 30 * 60 * 1000;
/** Per client IP: a player reports a visit at start, at progress steps and at the end; offices share an IP. */
export const VIEW_RECORD_RATE_LIMIT = { points: 120, duration: 60 } as const;
const VIEW_LIMITS = { visitorIdMin: 8, visitorIdMax: 64, secondsMax: 6 * 60 * 60, roomsMax: 500 } as const;

const TourViewRecordSchema = z
  .object({
    tourId: z.string().max(100),
    visitorId: z
      .string({ message: 'The visitor id is missing.' })
      .min(VIEW_LIMITS.visitorIdMin, 'The visitor id is too short.')
      .max(VIEW_LIMITS.visitorIdMax, 'The visitor id is too long.')
      .regex(/^[A-Za-z0-9_-]+$/, 'The visitor id may hold letters, digits, _ and - only.'),
    secondsSpent: z
      .number({ message: 'Seconds must be a number.' })
      .int('Seconds must be a whole number.')
      .min(0, 'Seconds cannot be negative.')
      .max(VIEW_LIMITS.secondsMax, 'Too many seconds for one visit.'),
    roomsReached: z.number({ message: 'Rooms must be a number.' }).int('Rooms must be a whole number.').min(0, 'Rooms cannot be negative.').max(VIEW_LIMITS.roomsMax, 'Too many rooms for one visit.'),
  })
  .extend(VisitRoomsSchema.shape);
export type TourViewRecordInput = z.infer<typeof TourViewRecordSchema>;

const limiters = new WeakMap<Services, RateLimiterMemory>();

/** Spends one of the caller IP's tourViewRecord calls; RATE_LIMITED when none are left. */
export async function consumeViewLimit(services: Services, ip: string): Promise<void> {
  if (services.config.RATE_LIMIT_DISABLED) return;
  let limiter = limiters.get(services);
  if (!limiter) {
    limiter = new RateLimiterMemory({ keyPrefix: 'tour-view-record', ...VIEW_RECORD_RATE_LIMIT });
    limiters.set(services, limiter);
  }
  try {
    await limiter.consume(ip || 'unknown');
  } catch (err) {
    if (err instanceof RateLimiterRes) throw new AppError(ERROR_CODES.RATE_LIMITED, ERROR_TEXTS.rateLimited, { retryAfterSeconds: Math.ceil(err.msBeforeNext / 1000) });
    throw err;
  }
}

/** Records (or extends) a visit; `tourUuid` is the decoded tour id. Unknown and deleted tours are NOT_FOUND. The caller rate-limits first. */
export async function recordTourView(services: Services, tourUuid: string, raw: TourViewRecordInput, now = new Date()): Promise<void> {
  const parsed = TourViewRecordSchema.safeParse(raw);
  if (!parsed.success) throw fromZod(parsed.error.issues);
  const input = parsed.data;
  const tour = await services.db.selectFrom('tours').select(['id', 'company_id', 'status', 'deactivated_at']).where('id', '=', tourUuid).where('deleted_at', 'is', null).executeTakeFirst();
  if (!tour) throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
  // Only a tour that plays can be visited (a processing or failed tour shows no player).
  if (tour.status !== TOUR_STATUS.PROCESSED && tour.status !== TOUR_STATUS.DEACTIVATED) throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
  // One visitor's calls are serialised (per tour and visitor) so two beacons sent at once open one visit, not two.
  const opened = await services.db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`visit:${tour.id}:${input.visitorId}`}))`.execute(trx);
    return extendOrOpen(trx, tour, input, now);
  });
  if (opened) viewCounter(services).add(tour.id, !!tour.deactivated_at || tour.status === TOUR_STATUS.DEACTIVATED);
}

/** Extends the visitor's visit of the last 30 minutes, or opens one; true when a visit was opened. */
async function extendOrOpen(db: Kysely<Database>, tour: { id: string; company_id: string }, input: TourViewRecordInput, now: Date): Promise<boolean> {
  const bdb = billingDb(db);
  // A beacon carries the whole visit so far: its rooms replace the stored ones unless they cover less time (a second
  // page of the same visit starts counting again from zero).
  const rooms = input.segments?.length ? summariseSegments(input.segments) : null;
  const roomsJson = rooms ? JSON.stringify(rooms.rooms) : null;
  const takeRooms = rooms ? sql<boolean>`${rooms.seconds} >= (SELECT coalesce(sum((r->>'seconds')::int), 0) FROM jsonb_array_elements(rooms) r)` : sql<boolean>`false`;
  const updated = await bdb
    .updateTable('view_events')
    .set({
      last_seen_at: now,
      seconds_spent: sql`greatest(seconds_spent, ${input.secondsSpent})`,
      rooms_reached: sql`greatest(rooms_reached, ${input.roomsReached})`,
      rooms: sql`CASE WHEN ${takeRooms} THEN ${roomsJson}::jsonb ELSE rooms END`,
      exit_room: sql`CASE WHEN ${takeRooms} THEN ${rooms?.exitRoom ?? null}::text ELSE exit_room END`,
      reached_end: sql`reached_end OR ${input.reachedEnd ?? false}`,
      fast_travels: sql`greatest(fast_travels, ${input.fastTravels ?? 0})`,
      device: sql`coalesce(device, ${input.device ?? null}::text)`,
    })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('view_events')
        .select('id')
        .where('tour_id', '=', tour.id)
        .where('visitor_id', '=', input.visitorId)
        .where('last_seen_at', '>', new Date(now.getTime() - VISIT_GAP_MS))
        .orderBy('last_seen_at', 'desc')
        .limit(1),
    )
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return false;
  await bdb
    .insertInto('view_events')
    .values({
      tour_id: tour.id,
      company_id: tour.company_id,
      visitor_id: input.visitorId,
      started_at: now,
      last_seen_at: now,
      seconds_spent: input.secondsSpent,
      rooms_reached: input.roomsReached,
      rooms: roomsJson ?? '[]',
      exit_room: rooms?.exitRoom ?? null,
      reached_end: input.reachedEnd ?? false,
      fast_travels: input.fastTravels ?? 0,
      device: input.device ?? null,
    })
    .execute();
  return true;
}

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
  let q = billingDb(db)
    .selectFrom('view_events as v')
    .innerJoin('tours as t', 't.id', 'v.tour_id')
    .where('t.deleted_at', 'is', null)
    .select([
      sql<number>`count(*)::int`.as('visits'),
      sql<number>`count(DISTINCT v.visitor_id)::int`.as('unique_visitors'),
      sql<number>`coalesce(sum(v.seconds_spent), 0)::bigint`.as('seconds'),
      sql<number>`coalesce(avg(v.seconds_spent), 0)::float8`.as('avg_seconds'),
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

/** Per-tour aggregates for a set of tours (reports). */
export async function analyticsByTour(db: Kysely<Database>, tourIds: readonly string[]): Promise<Map<string, TourAnalytics>> {
  const out = new Map<string, TourAnalytics>();
  if (tourIds.length === 0) return out;
  const rows = await billingDb(db)
    .selectFrom('view_events')
    .where('tour_id', 'in', tourIds as string[])
    .groupBy('tour_id')
    .select([
      'tour_id',
      sql<number>`count(*)::int`.as('visits'),
      sql<number>`count(DISTINCT visitor_id)::int`.as('unique_visitors'),
      sql<number>`coalesce(sum(seconds_spent), 0)::bigint`.as('seconds'),
      sql<number>`coalesce(avg(seconds_spent), 0)::float8`.as('avg_seconds'),
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
