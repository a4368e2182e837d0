/**
 * Sign-in with any OpenID Connect issuer (Google by default): discovery, an authorization URL whose `state` is an
 * encrypted, expiring token holding the nonce and the PKCE verifier (so no server-side session is needed), the code
 * exchange, and id_token verification against the issuer's JWKS with jose.
 */
import { createHash, randomBytes } from 'node:crypto';
import { EncryptJWT, createRemoteJWKSet, jwtDecrypt, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from '../config.js';

const OIDC_STATE_TTL_SECONDS = 10 * 60;

export class OidcError extends Error {
  override name = 'OidcError';
}

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  name: string | null;
}

/** What the sign-in carries through the round trip to the issuer (an invite, a referral). */
interface OidcStateExtras {
  inviteToken?: string | null | undefined;
  referredBy?: string | null | undefined;
}

export interface OidcClient {
  readonly issuer: string;
  authorizationUrl(extras?: OidcStateExtras): Promise<{ url: string; state: string }>;
  /** Exchanges the code and verifies the id_token; throws OidcError on anything wrong. */
  complete(code: string, state: string): Promise<{ identity: OidcIdentity; extras: OidcStateExtras }>;
}

const b64url = (b: Buffer) => b.toString('base64url');
const formEncode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');

/** The OIDC client for these settings, or null when no client id is configured (Google sign-in off). */
export function createOidcClient(
  config: Pick<
    Config,
    'OIDC_ISSUER' | 'OIDC_CLIENT_ID' | 'OIDC_CLIENT_SECRET' | 'OIDC_REDIRECT_URI' | 'publicUrl' | 'jwtSecret'
  >,
): OidcClient | null {
  if (!config.OIDC_CLIENT_ID) return null;
  const issuer = config.OIDC_ISSUER.replace(/\/$/, '');
  const clientId = config.OIDC_CLIENT_ID;
  const clientSecret = config.OIDC_CLIENT_SECRET ?? '';
  const redirectUri = () => config.OIDC_REDIRECT_URI ?? `${config.publicUrl}/signup/google`;
  const stateKey = createHash('sha256').update(`${config.jwtSecret}:oidc-state`).digest();

  let discovery: { value: Promise<Discovery>; at: number } | undefined;
  let jwks: { uri: string; set: ReturnType<typeof createRemoteJWKSet> } | undefined;

  async function discover(): Promise<Discovery> {
    if (!discovery || Date.now() - discovery.at > 60 * 60 * 1000) {
      const value = (async () => {
        const res = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(5000) });
        if (!res.ok) throw new OidcError(`discovery failed: HTTP ${res.status}`);
        const d = (await res.json()) as Partial<Discovery>;
        if (d.issuer?.replace(/\/$/, '') !== issuer || !d.authorization_endpoint || !d.token_endpoint || !d.jwks_uri) {
          throw new OidcError('discovery document does not match the configured issuer');
        }
        return d as Discovery;
      })();
      discovery = { value, at: Date.now() };
      value.catch(() => (discovery = undefined));
    }
    return discovery.value;
  }

  function keySet(uri: string) {
    if (jwks?.uri !== uri) jwks = { uri, set: createRemoteJWKSet(new URL(uri), { timeoutDuration: 5000 }) };
    return jwks.set;
  }

  return {
    issuer,
    async authorizationUrl(extras = {}) {
      const d = await discover();
      const nonce = b64url(randomBytes(16));
      const verifier = b64url(randomBytes(32));
      const state = await new EncryptJWT({
        n: nonce,
        v: verifier,
        i: extras.inviteToken ?? null,
        r: extras.referredBy ?? null,
      })
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .setIssuedAt()
        .setExpirationTime(`${OIDC_STATE_TTL_SECONDS}s`)
        .encrypt(stateKey);
      const url = new URL(d.authorization_endpoint);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri(),
        scope: 'openid email profile',
        state,
        nonce,
        code_challenge: b64url(createHash('sha256').update(verifier).digest()),
        code_challenge_method: 'S256',
      }).toString();
      return { url: url.toString(), state };
    },
    async complete(code, state) {
      let st: JWTPayload;
      try {
        st = (await jwtDecrypt(state, stateKey)).payload;
      } catch {
        throw new OidcError('state is invalid or expired');
      }
      const d = await discover();
      const res = await fetch(d.token_endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          authorization: `Basic ${Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`).toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri(),
          code_verifier: String(st.v),
        }),
        signal: AbortSignal.timeout(5000),
      });
      const tokens = (await res.json().catch(() => ({}))) as { id_token?: unknown; error?: unknown };
      if (!res.ok || typeof tokens.id_token !== 'string')
        throw new OidcError(`code exchange failed: ${String(tokens.error ?? res.status)}`);
      let claims: JWTPayload;
      try {
        ({ payload: claims } = await jwtVerify(tokens.id_token, keySet(d.jwks_uri), {
          issuer: d.issuer,
          audience: clientId,
          maxTokenAge: '10m',
        }));
      } catch (err) {
        throw new OidcError(`id_token rejected: ${(err as Error).message}`);
      }
      if (claims.nonce !== st.n) throw new OidcError('id_token nonce does not match');
      if (Array.isArray(claims.aud) && claims.aud.length > 1 && claims.azp !== clientId)
        throw new OidcError('id_token azp does not match');
      if (typeof claims.sub !== 'string' || !claims.sub) throw new OidcError('id_token has no subject');
      const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
      return {
        identity: {
          issuer,
          subject: claims.sub,
          email: str(claims.email)?.toLowerCase() ?? null,
          emailVerified: claims.email_verified === true || claims.email_verified === 'true',
          givenName: str(claims.given_name),
          familyName: str(claims.family_name),
          name: str(claims.name),
        },
        extras: { inviteToken: (st.i as string | null) ?? null, referredBy: (st.r as string | null) ?? null },
      };
    },
  };
}
