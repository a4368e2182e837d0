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
import { ERROR_CODES, ERROR_TEXTS, isBasicOrHigher } from '@roomwalk/shared';
import type { Database } from '../../db/types.js';
import { AppError, fromZod } from '../../core/errors.js';
import type { Services } from '../services.js';
import { billingDb } from '../billing/tables.js';
import { viewCounter } from '../view-counter.js';
import { summariseSegments, VisitRoomsSchema } from './visit-rooms.js';
import { MAX_WAITING, VisitWriter, type VisitWrite } from './visit-writer.js';

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

/** Records (or extends) a visit and waits for it to be written; `tourUuid` is the decoded tour id. Unknown and deleted tours are NOT_FOUND. The caller rate-limits first. */
export async function recordTourView(services: Services, tourUuid: string, raw: TourViewRecordInput, now = new Date()): Promise<void> {
  const write = visitWrite(tourUuid, raw, now);
  const writer = visitWriter(services);
  // Written with the other beacons of the moment (visit-writer.ts); beyond a bound of waiting beacons, refused as busy.
  if (writer.waiting >= MAX_WAITING) throw new AppError(ERROR_CODES.RATE_LIMITED, ERROR_TEXTS.rateLimited, { retryAfterSeconds: 5 });
  const r = await writer.write(write);
  if (!r.found) throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
  if (r.opened) viewCounter(services).add(tourUuid, r.deactivated);
}

/** Resolves when every visit taken so far is written. */
export async function settleVisits(services: Services): Promise<void> {
  await writers.get(services)?.settled();
}

function visitWrite(tourUuid: string, raw: TourViewRecordInput, now: Date): VisitWrite {
  const parsed = TourViewRecordSchema.safeParse(raw);
  if (!parsed.success) throw fromZod(parsed.error.issues);
  const input = parsed.data;
  return {
    tourId: tourUuid,
    visitorId: input.visitorId,
    at: now,
    secondsSpent: input.secondsSpent,
    roomsReached: input.roomsReached,
    rooms: input.segments?.length ? summariseSegments(input.segments) : null,
    reachedEnd: input.reachedEnd ?? false,
    fastTravels: input.fastTravels ?? 0,
    device: input.device ?? null,
  };
}

const writers = new WeakMap<Services, VisitWriter>();
function visitWriter(services: Services): VisitWriter {
  let w = writers.get(services);
  if (!w) {
    w = new VisitWriter(services.db);
    writers.set(services, w);
  }
  return w;
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
