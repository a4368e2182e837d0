/**
 * Everything a resolver, route or job can use, built once per process by buildApp(): the shared parts (database,
 * storage, queue, bus) and what this process keeps for itself (counters, caches, memos, its clock), one field each, so
 * nothing lives per process out of sight of this type. It names types only (.dependency-cruiser.cjs), from any floor.
 */
import type { Kysely } from 'kysely';
import type { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/types.js';
import type { Storage } from '../storage/storage.js';
import type { Mailer } from '../mail/mailer.js';
import type { JobQueue } from '../jobs/queue.js';
import type { EventBus } from '../events/event-bus.js';
import type { TokenService } from '../auth/tokens.js';
import type { HumanCheck } from '../auth/human-check.js';
import type { FastifyBaseLogger } from 'fastify';
import type { PublicTourCache } from '../http/public-tour-memory.js';
import type { PaymentProvider } from './billing/provider.js';
import type { SignalingTokens } from './live/signaling-token.js';
import type { VisitWriter } from './reports/visit-writer.js';
import type { AccessIndex } from './tour-access/access-index.js';
import type { ViewCounter } from './view-counter.js';

export interface Services {
  config: Config;
  database: Db;
  db: Kysely<Database>;
  storage: Storage;
  mailer: Mailer;
  queue: JobQueue;
  events: EventBus;
  tokens: TokenService;
  humanCheck: HumanCheck;
  log: FastifyBaseLogger;

  // ---- What this process keeps for itself ----
  /** How far this server's clock runs ahead of the system's (core/clock.ts serverNow; development servers move it). */
  clockOffsetMs: number;
  /** The rate limiters, one per row of RATE_LIMITS as it is first spent (auth/rate-limit.ts). */
  rateLimiters: Map<string, RateLimiterMemory>;
  /** When this node last wrote each API key's last-used time (services/developer/api-keys.ts). */
  apiKeyLastUsed: Map<string, number>;
  /** The payment provider, made on first use (Stripe's module loads only then: services/billing/payment-provider.ts). */
  paymentProvider?: Promise<PaymentProvider>;
  /** Visits written in batches (services/reports/analytics.ts). */
  visitWriter: VisitWriter;
  /** Tour views counted in memory, written each second (services/view-counter.ts). */
  viewCounter: ViewCounter;
  /** The live viewing socket's tokens (services/live/sessions.ts). */
  signalingTokens: SignalingTokens;
  /** Which tours are protected, made on first use (it listens to access changes: services/tour-access/). */
  accessIndex?: AccessIndex;
  /** Media signatures made this hour (services/tour-access/grants.ts mediaSignature). */
  mediaSignatures: Map<string, string>;
  /** The public tour answers kept by an API node: public, for grant holders, gate refusals (http/public-tour-cache.ts). */
  publicTourCaches?: { answers: PublicTourCache; granted: PublicTourCache; refusals: PublicTourCache };
}
