/**
 * The one rate limiter (rate-limiter-flexible): every limit is a row of RATE_LIMITS. Per-IP limits for the public
 * GraphQL mutations that cost us mail or hashing (sign-up, reset, resend, feedback, leads), per API key, and, through
 * `routeRateLimit` (http/refuse.ts), for HTTP routes (/oauth/token, Google sign-in, the local card form); /oauth/token
 * also uses `reserveLoginAttempt` (per account). The client IP is
 * the socket's address unless TRUST_PROXY names the proxies in front (config.ts). Counters live in this process
 * (rate-limiter-flexible's memory store): with several API nodes each node counts on its own (docs/decisions.md,
 * Accounts).
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';
import type { Config } from '../config.js';
import { AppError } from '../core/errors.js';
import type { Services } from '../services/services.js';

export const RATE_LIMITS = {
  oauthToken: { points: 10, duration: 60 },
  /**
   * GraphQL requests and subscriptions without a token, per address (/query over HTTP and graphql-ws): the player, the
   * sign-up page and the public report ask a few each; a flood of documents does not reach the parser.
   */
  anonymousQuery: { points: 120, duration: 60 },
  /** Failed password logins per account (any address): a guess spread over many addresses at one account is slowed. */
  loginAccount: { points: 10, duration: 10 * 60 },
  googleLogin: { points: 10, duration: 60 },
  googleLoginUrl: { points: 10, duration: 60 },
  /** Card form posts of the local billing page. */
  billingCardAttempt: { points: 30, duration: 60 },
  userRegister: { points: 10, duration: 10 * 60 },
  /**
   * Sign-up attempts per e-mail address, from any client address (the answer "Username already taken" is the spec's).
   */
  userRegisterEmail: { points: 5, duration: 60 * 60 },
  userRequestPasswordReset: { points: 5, duration: 15 * 60 },
  userActivationEmailResend: { points: 5, duration: 15 * 60 },
  feedbackSubmit: { points: 10, duration: 10 * 60 },
  /**
   * Visit beacons per visitor id (POST /tour-visit, tourViewRecord): a visit sends a few (load, hide, a lead form), so
   * one browser never nears it; a page that floods beacons is stopped here without touching its neighbours.
   */
  tourVisitVisitor: { points: 30, duration: 60 },
  /**
   * Visit beacons per address, the ceiling over all its visitor ids: an open day on one Wi-Fi or a mobile carrier's
   * shared address holds many honest browsers (docs/decisions.md, "New visits per address are limited").
   */
  tourVisit: { points: 600, duration: 60 },
  /**
   * New visits per address per tour: beyond them a beacon may extend its visit but opens none. High enough for an open
   * day behind one address (each browser opens one visit per 30 minutes), low enough to bound invented visitor ids
   * (docs/decisions.md, "Visits and analytics").
   */
  visitOpen: { points: 100, duration: 10 * 60 },
  /**
   * Webhook test events and replays per company (deliveries its admins start by hand, each a request to their
   * endpoint).
   */
  webhookManualSend: { points: 10, duration: 60 },
  /** Wrong tour passwords per address and tour (a right one gives its point back; services/tour-access/). */
  tourPassword: { points: 10, duration: 10 * 60 },
  /** Wrong tour passwords per address over every tour: one address guessing at many tours is stopped too. */
  tourPasswordAddress: { points: 30, duration: 10 * 60 },
  /**
   * Wrong passwords of one tour from any address: beyond them every guess at that tour needs a human check (a guess
   * spread over many addresses is slowed), but nobody is locked out: an honest visitor passes the check and gets in.
   */
  tourPasswordTour: { points: 20, duration: 10 * 60 },
  /** Leads per address (tourLeadCreate: a human check, a mail to the agent and maybe a viewing session each). */
  tourLeadCreate: { points: 10, duration: 10 * 60 },
  /**
   * Personal data exports per user (dataExportCreate: a job reading everything the user has, a ZIP and a mail each).
   */
  dataExport: { points: 5, duration: 24 * 60 * 60 },
  /** Requests per API key on each API node, whatever address they come from (API_KEY_RATE_LIMIT_PER_MINUTE). */
  apiKey: { points: (c: Config) => c.API_KEY_RATE_LIMIT_PER_MINUTE, duration: 60 },
} as const satisfies Record<string, { points: number | ((c: Config) => number); duration: number }>;
export type RateLimitedAction = keyof typeof RATE_LIMITS;

function limiterFor(services: Services, action: RateLimitedAction): RateLimiterMemory {
  const byAction = services.rateLimiters;
  let limiter = byAction.get(action);
  if (!limiter) {
    const { points, duration } = RATE_LIMITS[action];
    limiter = new RateLimiterMemory({
      keyPrefix: action,
      points: typeof points === 'function' ? points(services.config) : points,
      duration,
    });
    byAction.set(action, limiter);
  }
  return limiter;
}

/**
 * Spends one attempt of `action` for this key (the client IP); answers the seconds to wait when none are left, else
 * null.
 */
export async function rateLimitWait(
  services: Services,
  action: RateLimitedAction,
  key: string,
): Promise<number | null> {
  if (services.config.RATE_LIMIT_DISABLED) return null;
  try {
    await limiterFor(services, action).consume(key || 'unknown');
    return null;
  } catch (err) {
    if (err instanceof RateLimiterRes) return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    throw err;
  }
}

/** Spends one attempt of `action` for this key (the client IP); throws RATE_LIMITED when none are left. */
export async function consumeRateLimit(services: Services, action: RateLimitedAction, key: string): Promise<void> {
  const wait = await rateLimitWait(services, action, key);
  if (wait !== null) throw new AppError(ERROR_CODES.RATE_LIMITED, ERROR_TEXTS.rateLimited, { retryAfterSeconds: wait });
}

/**
 * Takes one point of `action` for `key` when one is left, refusing nothing: answers whether it was taken (always when
 * limits are off), the seconds until one is free, and a refund that gives a taken point back. For work only part of
 * which is limited (a visit beacon extends its visit whatever the limit, but opens a new visit only with a point).
 */
export async function takeRateLimit(
  services: Services,
  action: RateLimitedAction,
  key: string,
): Promise<{ taken: boolean; retryAfterSeconds: number; refund: () => Promise<void> }> {
  const wait = await rateLimitWait(services, action, key);
  const refund = async () => {
    if (wait === null && !services.config.RATE_LIMIT_DISABLED)
      await limiterFor(services, action)
        .reward(key || 'unknown', 1)
        .catch(() => undefined);
  };
  return { taken: wait === null, retryAfterSeconds: wait ?? 0, refund };
}

/**
 * Takes one of the account's login attempts before the password is checked (so concurrent guesses cannot all pass);
 * answers `refund` for a successful login, which gives the attempt back: only failures count. Throws RATE_LIMITED
 * when the account has had RATE_LIMITS.loginAccount failures in its window, whatever addresses they came from.
 */
export async function reserveLoginAttempt(
  services: Services,
  username: unknown,
): Promise<{ refund: () => Promise<void> }> {
  const key = typeof username === 'string' ? username.trim().toLowerCase().slice(0, 320) : '';
  if (services.config.RATE_LIMIT_DISABLED || !key) return { refund: async () => undefined };
  await consumeRateLimit(services, 'loginAccount', key);
  return {
    refund: async () =>
      void (await limiterFor(services, 'loginAccount')
        .reward(key, 1)
        .catch(() => undefined)),
  };
}
