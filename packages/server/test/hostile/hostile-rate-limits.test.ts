/**
 * Rate limits against a client that picks its own address. With TRUST_PROXY off (the default) a
 * client's X-Forwarded-For changes nothing; real different source addresses (sockets bound to 127.0.0.x) each get
 * their own per-address budget, yet a password guess spread over them at one account is stopped by the per-account
 * limit. With TRUST_PROXY naming the proxy, the proxy's X-Forwarded-For is believed.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { parseTrustProxy } from '../../src/config.js';
import { RATE_LIMITS } from '../../src/auth/rate-limit.js';
import { basicClientHeader, PASSWORD, signUpActivated, uniqueEmail } from '../helpers/accounts.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** POST /oauth/token from a chosen local address, with optional extra headers. */
function loginFrom(
  url: string,
  body: Record<string, unknown>,
  from: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any }> {
  const u = new URL(`${url}/oauth/token`);
  const text = JSON.stringify({ grant_type: 'password', ...body });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: {
          'content-type': 'application/json',
          authorization: basicClientHeader(),
          'content-length': String(Buffer.byteLength(text)),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString() || 'null') }),
        );
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const perIp = RATE_LIMITS.oauthToken.points;
const perAccount = RATE_LIMITS.loginAccount.points;

describe('TRUST_PROXY setting', () => {
  it('is off by default, takes a hop count or a list of proxy addresses, and refuses "true" and garbage', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('off')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1,::1')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
    expect(parseTrustProxy('true')).toMatch(/not "true"/);
    expect(parseTrustProxy('10.0.0.0/33')).toMatch(/not an IP address or CIDR/);
    expect(parseTrustProxy('proxy.example.com')).toMatch(/not an IP address or CIDR/);
  });
});

describe('login limits with TRUST_PROXY off (default)', () => {
  let t: TestApp;
  let victim: string;
  beforeAll(async () => {
    t = await startTestApp('pglite');
    victim = uniqueEmail('victim');
    await signUpActivated(t, { username: victim });
  });
  afterAll(async () => t?.stop());

  it('ignores a client-supplied X-Forwarded-For: one address keeps one budget', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= perIp; i++) {
      const r = await loginFrom(t.url, { username: uniqueEmail('nobody'), password: 'wrong-123' }, '127.0.0.2', {
        'x-forwarded-for': `203.0.113.${i + 1}`,
      });
      statuses.push(r.status);
    }
    expect(
      statuses.slice(0, perIp).every((s) => s === 401),
      statuses.join(','),
    ).toBe(true);
    expect(statuses[perIp]).toBe(429);
  });

  it('slows a guess at one account spread over several real addresses, and only that account', async () => {
    const addresses = ['127.0.0.3', '127.0.0.4', '127.0.0.5'];
    const statuses: number[] = [];
    for (let i = 0; i < perAccount + 2; i++) {
      // Spread so that no address reaches its own per-address budget.
      const r = await loginFrom(
        t.url,
        { username: i % 2 ? victim.toUpperCase() : victim, password: `guess-${i}` },
        addresses[i % addresses.length]!,
      );
      statuses.push(r.status);
      if (r.status === 429) expect(r.json.code).toBe(ERROR_CODES.RATE_LIMITED);
    }
    expect(Math.ceil((perAccount + 2) / addresses.length)).toBeLessThan(perIp);
    expect(
      statuses.slice(0, perAccount).every((s) => s === 401),
      statuses.join(','),
    ).toBe(true);
    expect(statuses.slice(perAccount), statuses.join(',')).toEqual([429, 429]);
    // Another account from the same addresses is not affected.
    const other = await loginFrom(t.url, { username: uniqueEmail('other'), password: 'wrong-123' }, '127.0.0.3');
    expect(other.status).toBe(401);
  });

  it('does not count successful logins against the account', async () => {
    const owner = uniqueEmail('owner');
    await signUpActivated(t, { username: owner });
    for (let i = 0; i < perAccount + 2; i++) {
      const r = await loginFrom(t.url, { username: owner, password: PASSWORD }, `127.0.1.${(i % 5) + 1}`);
      expect(r.status, `login ${i}`).toBe(200);
    }
  });
});

describe('login limits with TRUST_PROXY naming the proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { TRUST_PROXY: '127.0.0.1' } as never);
  });
  afterAll(async () => t?.stop());

  it("believes the trusted proxy's X-Forwarded-For (clients behind it get their own budgets) and nobody else's", async () => {
    for (let i = 0; i <= perIp; i++) {
      const r = await loginFrom(t.url, { username: uniqueEmail('nobody'), password: 'wrong-123' }, '127.0.0.1', {
        'x-forwarded-for': `203.0.113.${i + 1}`,
      });
      expect(r.status, `request ${i}`).toBe(401);
    }
    const statuses: number[] = [];
    for (let i = 0; i <= perIp; i++) {
      const r = await loginFrom(t.url, { username: uniqueEmail('nobody'), password: 'wrong-123' }, '127.0.0.6', {
        'x-forwarded-for': `198.51.100.${i + 1}`,
      });
      statuses.push(r.status);
    }
    expect(statuses[perIp], statuses.join(',')).toBe(429);
  });
});
