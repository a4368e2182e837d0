/** Session token checks shared by console and server. */
export interface TokenClaims {
  sub?: string;
  roles?: unknown;
  exp?: number;
  [key: string]: unknown;
}

function base64UrlDecode(part: string): string {
  const b64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  if (typeof atob === 'function') {
    const bin = atob(b64);
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  }
  return Buffer.from(b64, 'base64').toString('utf8');
}

/** Decodes a JWT payload without verifying it; null when it does not decode. */
export function decodeToken(token: string | null | undefined): TokenClaims | null {
  if (!token) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const claims: unknown = JSON.parse(base64UrlDecode(parts[1]));
    return claims && typeof claims === 'object' ? (claims as TokenClaims) : null;
  } catch {
    return null;
  }
}

/** Roles from a token: the non-empty string array, or null. */
export function tokenRoles(claims: TokenClaims | null): string[] | null {
  const roles = claims?.roles;
  if (!Array.isArray(roles) || roles.length === 0 || !roles.every((r) => typeof r === 'string')) return null;
  return roles as string[];
}

/** A token is valid when it decodes, holds a non-empty roles array and is not expired. */
export function isTokenValid(token: string | null | undefined, nowMs: number = Date.now()): boolean {
  const claims = decodeToken(token);
  if (!claims || !tokenRoles(claims)) return false;
  if (typeof claims.exp !== 'number') return false;
  return claims.exp * 1000 > nowMs;
}

/** Milliseconds until the token expires (negative when expired); null without exp. */
export function msUntilExpiry(token: string, nowMs: number = Date.now()): number | null {
  const exp = decodeToken(token)?.exp;
  return typeof exp === 'number' ? exp * 1000 - nowMs : null;
}
