/**
 * Sign-in with Google (any OpenID Connect issuer from the OIDC_* settings):
 * GET /auth/google/url gives the console the issuer's authorization URL and its state;
 * POST /auth/google/user { code, state, gToken } completes it and answers { token, email }.
 * gToken is the human-check token, needed only when the sign-in creates a new account.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';
import { refuse, routeRateLimit } from './refuse.js';
import { createOidcClient, OidcError } from '../auth/oidc.js';
import { AppError } from '../core/errors.js';
import { issueSession } from '../services/accounts.js';
import { OidcSignInRefused, signInWithOidc } from '../services/oidc-sign-in.js';
import type { Services } from '../services/services.js';

const str = (v: unknown, max = 4096) => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : null);

export async function registerGoogleRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const client = createOidcClient(services.config);

  // Whether Google sign-in is set up here (OIDC_CLIENT_ID and OIDC_CLIENT_SECRET): the console hides its button when
  // not.
  app.get('/auth/google/status', async (_req, reply) =>
    reply.header('cache-control', 'no-store').send({ configured: !!client }),
  );

  app.get<{ Querystring: { inviteToken?: string; referredBy?: string; rB?: string } }>(
    '/auth/google/url',
    { preHandler: routeRateLimit(services, 'googleLoginUrl') },
    async (req, reply) => {
      if (!client) return refuse(reply, ERROR_CODES.SERVICE_NOT_CONFIGURED, 'Google sign-in is not configured.');
      try {
        const { url, state } = await client.authorizationUrl({
          inviteToken: str(req.query.inviteToken, 200),
          referredBy: str(req.query.referredBy ?? req.query.rB, 200),
        });
        return reply.header('cache-control', 'no-store').send({ url, state });
      } catch (err) {
        req.log.warn({ err }, 'OIDC discovery failed');
        return refuse(reply, ERROR_CODES.SERVICE_NOT_CONFIGURED, ERROR_TEXTS.googleLoginFailed);
      }
    },
  );

  app.post<{ Body: { code?: unknown; state?: unknown; gToken?: unknown } | undefined }>(
    '/auth/google/user',
    { preHandler: routeRateLimit(services, 'googleLogin') },
    async (req, reply) => {
      if (!client) return refuse(reply, ERROR_CODES.SERVICE_NOT_CONFIGURED, 'Google sign-in is not configured.');
      const code = str(req.body?.code);
      const state = str(req.body?.state);
      if (!code || !state) return refuse(reply, ERROR_CODES.BAD_USER_INPUT, ERROR_TEXTS.googleLoginFailed);
      try {
        const { identity, extras } = await client.complete(code, state);
        const user = await signInWithOidc(services, identity, extras, str(req.body?.gToken), req.ip);
        const session = await issueSession(services, user);
        return reply.header('cache-control', 'no-store').send({
          token: session.token,
          email: user.username,
          roles: session.roles,
          ...(session.deletionCancelled ? { deletionCancelled: true } : {}),
        });
      } catch (err) {
        if (err instanceof OidcError || err instanceof OidcSignInRefused) {
          req.log.info({ reason: err.message }, 'Google sign-in refused');
          return refuse(reply, ERROR_CODES.UNAUTHENTICATED, ERROR_TEXTS.googleLoginFailed);
        }
        if (err instanceof AppError) return refuse(reply, err.code, err.message);
        throw err;
      }
    },
  );
}
