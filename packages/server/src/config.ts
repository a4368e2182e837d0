/** Settings from the environment, each with its embedded default (documented in .env.example). */
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const bool = z
  .union([z.boolean(), z.string()])
  .transform((v) => (typeof v === 'boolean' ? v : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase())));

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  /** Public base URL used in mails and media links; defaults to http://HOST:PORT. */
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.string().optional(),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  JWT_SECRET: z.string().min(16).optional(),
  TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(60 * 60 * 24 * 7),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Roomwalk <no-reply@roomwalk.local>'),
  TURNSTILE_SECRET: z.string().optional(),
  TURNSTILE_VERIFY_URL: z.string().url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  TURNSTILE_SITE_KEY: z.string().optional(),
  OIDC_ISSUER: z.string().url().default('https://accounts.google.com'),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_REDIRECT_URI: z.string().url().optional(),
  S3_ENDPOINT: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.default(true),
  CDN_BASE_URL: z.string().url().optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Stripe API base URL (tests point it at a local fake); defaults to Stripe's own. */ STRIPE_API_URL: z
    .string()
    .url()
    .optional(),
  AGORA_APP_ID: z.string().optional(),
  AGORA_APP_CERTIFICATE: z.string().optional(),
  ICE_SERVERS: z.string().optional(),
  LIVE_ALLOWED_ORIGINS: z.string().default(''), // live viewing socket: extra browser origins (comma list or *), docs/live-viewing.md
  LIVE_SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(2 * 60 * 60), // lifetime of a viewing session and its tokens
  AI_WORKER_URL: z.string().url().optional(),
  REEL_X264_PRESET: z.enum(['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium']).default('veryfast'), // reels: x264 speed/size trade-off (tests use ultrafast)
  ERROR_REPORTING_URL: z.string().url().optional(),
  REDIS_URL: z.string().optional(),
  /**
   * PostgreSQL: where the LISTEN connection goes when not to DATABASE_URL (a pooler in transaction mode in front of the
   * pool cannot carry LISTEN). Lost, it comes back with backoff up to NOTICE_RECONNECT_MAX_SECONDS; an idle one is
   * asked to answer every NOTICE_CHECK_SECONDS (docs/operations.md, Database notices).
   */
  NOTICE_DATABASE_URL: z.string().optional(),
  NOTICE_RECONNECT_MAX_SECONDS: z.coerce.number().min(0.25).default(10),
  NOTICE_CHECK_SECONDS: z.coerce.number().min(0.5).default(30),
  GRAPHQL_INTROSPECTION: z.enum(['open', 'api', 'off']).optional(), // schema introspection: default open outside production, 'api' (Pro-plan users and super admins) in production
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_DISABLED: bool.default(false),
  /** Prometheus metrics on /metrics for `Authorization: Bearer <METRICS_TOKEN>`; unset: no /metrics at all. */
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  /** When the room analytics rollup runs (cron, UTC): whole days of visits into daily aggregates. */
  ROOM_ANALYTICS_ROLLUP_CRON: z.string().default('17 * * * *'),
  /** How long the link to a personal data export works (hours); the ZIP is removed from storage after it. */
  DATA_EXPORT_LINK_HOURS: z.coerce.number().int().min(1).max(720).default(48),
  /** Days between asking to delete an account and its deletion; signing in before then cancels it. */
  ACCOUNT_DELETION_GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  /**
   * Proxies in front whose X-Forwarded-For / -Proto are believed: off (default), a hop count, or a comma list of
   * IPs/CIDRs.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const r = parseTrustProxy(v);
      if (typeof r === 'string') ctx.addIssue({ code: 'custom', message: r });
      return typeof r === 'string' ? false : r;
    }),
  CONSOLE_DIST: z.string().optional(),
  PLAYER_DIST: z.string().optional(),
  /** Largest video accepted (a 10-minute 4K60 phone video is about 4 GB). */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(8 * 1024 ** 3),
  /** Part size of multipart uploads; S3 needs at least 5 MiB per part (all but the last) and at most 10,000 parts. */
  UPLOAD_PART_BYTES: z.coerce
    .number()
    .int()
    .min(5 * 1024 ** 2)
    .max(5 * 1024 ** 3)
    .default(8 * 1024 ** 2),
  UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
  /**
   * An upload not submitted this long after it began is abandoned: it stops counting against the user's unfinished
   * uploads and is swept.
   */
  UPLOAD_ABANDON_SECONDS: z.coerce.number().int().positive().default(21_600),
  PROCESSING_EXPIRE_SECONDS: z.coerce.number().int().min(1).default(1800),
  /** Crash recovery: a processing job's lease; a worker that stops renewing it (dead) loses the job after this long. */
  PROCESSING_LEASE_SECONDS: z.coerce.number().int().min(5).default(30),
  PROCESSING_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).default(5),
  /**
   * A video longer than 1.5 segments is processed in segments of about this many seconds (whole 36-frame clips), which
   * any worker takes (jobs/process-tour-segments.ts); shorter ones in one piece. See docs/operations.md.
   */
  PROCESSING_SEGMENT_SECONDS: z.coerce.number().min(2.4).default(48),
  /** How often pg-boss expires jobs whose lease ran out and retries them (pg-boss's own default is 120). */
  JOB_MAINTENANCE_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(10),
  /** Public tour answers kept in memory per node (http/public-tour-cache.ts); 0 turns the in-process cache off. */
  PUBLIC_TOUR_CACHE_ENTRIES: z.coerce.number().int().min(0).default(1000),
  /** APIs & Webhooks: requests per minute per API key, on each API node. */
  API_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Whether webhooks may be sent to 127.0.0.1 / ::1 (default: yes outside production, no in production). */
  WEBHOOK_ALLOW_LOOPBACK: bool.optional(),
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().min(0.1).default(10),
  /** Waits before each retry of a failed delivery, in seconds (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
  WEBHOOK_RETRY_SCHEDULE_SECONDS: z
    .string()
    .default('5,300,1800,7200,18000,36000,36000')
    .transform((v, ctx) => {
      const list = v.split(',').map((x) => Number(x.trim()));
      if (list.length === 0 || list.length > 20 || list.some((n) => !Number.isFinite(n) || n < 0)) {
        ctx.addIssue({ code: 'custom', message: 'a comma list of seconds, e.g. 5,300,1800' });
        return z.NEVER;
      }
      return list;
    }),
  /** An endpoint failing for this long (every delivery since) is disabled and the company admins get a mail. */
  WEBHOOK_DISABLE_AFTER_HOURS: z.coerce.number().min(0).default(72),
  PROCESSING_RETRY_LIMIT: z.coerce.number().int().min(0).default(3),
  PROCESSING_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).default(15),
  /**
   * SIGTERM: how long an API node drains requests and sockets, and a worker waits for its job before handing it back.
   */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(1).optional(), // default 25 (5 under NODE_ENV=test)
});

/**
 * TRUST_PROXY → Fastify's trustProxy: false when unset/off; a hop count (1 = the one load balancer in front); or the
 * proxies' addresses (IPs or CIDRs, comma list). `true` (believe any client's X-Forwarded-For) is refused: it lets
 * a client choose its own address and so lift every per-address limit. A string answer is the error.
 */
export function parseTrustProxy(value: string | undefined): false | number | string[] | string {
  const v = (value ?? '').trim();
  if (v === '' || ['0', 'false', 'off', 'no'].includes(v.toLowerCase())) return false;
  if (/^\d+$/.test(v)) return Number(v);
  if (['1', 'true', 'yes', 'on'].includes(v.toLowerCase()))
    return 'give the number of proxies in front (e.g. 1) or their addresses, not "true"';
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of list) {
    const [ip, bits, extra] = item.split('/');
    const family = isIP(ip ?? '');
    const max = family === 6 ? 128 : 32;
    if (!family || extra !== undefined || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= max))) {
      return `"${item}" is not an IP address or CIDR range (expected a hop count or e.g. 10.0.0.0/8,127.0.0.1)`;
    }
  }
  return list;
}

export type RawConfig = z.infer<typeof ConfigSchema>;
export interface Config extends RawConfig {
  publicUrl: string;
  dataDir: string;
  isDev: boolean;
  jwtSecret: string;
}

/** Reads settings from an env-like object; throws a readable error on a bad value. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<RawConfig> = {},
): Config {
  const parsed = ConfigSchema.safeParse({ ...env, ...overrides });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid settings:\n${lines}`);
  }
  const c = parsed.data;
  const isDev = c.NODE_ENV !== 'production';
  if (!isDev && !c.JWT_SECRET) throw new Error('Invalid settings:\n  JWT_SECRET: required in production');
  const dataDir = path.resolve(c.DATA_DIR);
  return {
    ...c,
    WEBHOOK_ALLOW_LOOPBACK: c.WEBHOOK_ALLOW_LOOPBACK ?? isDev,
    isDev,
    dataDir,
    publicUrl: (c.PUBLIC_URL ?? `http://${c.HOST === '0.0.0.0' ? '127.0.0.1' : c.HOST}:${c.PORT}`).replace(/\/$/, ''),
    jwtSecret: c.JWT_SECRET ?? 'roomwalk-development-secret-change-me',
  };
}
