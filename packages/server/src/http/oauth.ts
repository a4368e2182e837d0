/**
 * POST /oauth/token: the password grant (Basic client credentials, JSON body) answering a session JWT.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES, ERROR_TEXTS, OAUTH_CLIENT } from '@roomwalk/shared';
import { refuse, routeRateLimit } from './refuse.js';
import { reserveLoginAttempt } from '../auth/rate-limit.js';
import { AppError } from '../core/errors.js';
import { authenticate, issueSession } from '../services/accounts.js';
import type { Services } from '../services/services.js';

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** True when the Authorization header carries the console's fixed client id and secret. */
export function isConsoleClient(header: string | undefined): boolean {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header?.trim() ?? '');
  if (!m) return false;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return false;
  return same(decoded.slice(0, i), OAUTH_CLIENT.id) && same(decoded.slice(i + 1), OAUTH_CLIENT.secret);
}

export async function registerOAuthRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.post<{ Body: { username?: unknown; password?: unknown; grant_type?: unknown } | undefined }>(
    '/oauth/token',
    { preHandler: routeRateLimit(services, 'oauthToken') },
    async (req, reply) => {
      if (!isConsoleClient(req.headers.authorization)) {
        return refuse(
          reply.header('www-authenticate', 'Basic realm="roomwalk"'),
          ERROR_CODES.UNAUTHENTICATED,
          ERROR_TEXTS.authenticationFailed,
          { error: 'invalid_client' },
        );
      }
      const body = req.body && typeof req.body === 'object' ? req.body : {};
      if (body.grant_type !== 'password') {
        return refuse(reply, ERROR_CODES.BAD_USER_INPUT, 'Only the password grant is supported.', {
          error: 'unsupported_grant_type',
        });
      }
      // Per account as well as per address: the attempt is taken first and given back when the login succeeds.
      let attempt: Awaited<ReturnType<typeof reserveLoginAttempt>>;
      try {
        attempt = await reserveLoginAttempt(services, body.username);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const retryAfter = Number(err.details?.retryAfterSeconds ?? 60);
        return refuse(
          reply.header('retry-after', String(retryAfter)),
          ERROR_CODES.RATE_LIMITED,
          ERROR_TEXTS.rateLimited,
          { error: 'too_many_requests' },
        );
      }
      // Unknown user, wrong password and malformed input get the same answer after the same argon2 work.
      const user = await authenticate(services, body.username, body.password);
      if (!user)
        return refuse(reply, ERROR_CODES.INVALID_CREDENTIALS, ERROR_TEXTS.loginFailed, { error: 'invalid_grant' });
      await attempt.refund();
      const session = await issueSession(services, user);
      return reply
        .header('cache-control', 'no-store')
        .header('pragma', 'no-cache')
        .send({
          access_token: session.token,
          token_type: 'Bearer',
          expires_in: session.expiresIn,
          roles: session.roles,
          // Signing in cancelled the account's deletion: the console says so on screen.
          ...(session.deletionCancelled ? { deletion_cancelled: true } : {}),
        });
    },
  );
}

/** Every account route: the password grant and sign-in with Google. */
export async function registerAuthRoutes(app: FastifyInstance, services: Services): Promise<void> {
  await registerOAuthRoutes(app, services);
  await (await import('./google.js')).registerGoogleRoutes(app, services);
}
