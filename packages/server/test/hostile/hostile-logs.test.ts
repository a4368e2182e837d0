/**
 * Nothing secret in logs, and production refuses what is not production, read from the log lines themselves
 * (the app's pino destination): a production start without SMTP_URL is refused; with it, a reset link goes by mail and
 * never into the log; access logs redact upload signatures, seller report tokens and `access_token=`; a mutation sent
 * by GET answers 400 BAD_USER_INPUT and refused subscriptions log nothing at error level.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { PRODUCTION_NEEDS_SMTP, buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { redactSecrets } from '../../src/http/logging.js';
import { seedUser } from '../helpers/seed.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { SUB_ROOT, wsSubscribe } from './harness.js';

interface LogLine {
  level: number;
  msg?: string;
  [k: string]: unknown;
}

describe('production logs (hostile)', () => {
  let t: TestApp;
  let smtp: SmtpInbox;
  const raw: string[] = [];
  const lines = () => raw.map((l) => JSON.parse(l) as LogLine);
  beforeAll(async () => {
    smtp = await startSmtpInbox();
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => raw.push(...String(chunk).split('\n').filter(Boolean)));
    t = await startTestApp(
      'pglite',
      { NODE_ENV: 'production', ROLE: 'all', LOG_LEVEL: 'info', SMTP_URL: smtp.url },
      { logStream: stream },
    );
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.close();
  });

  it('refuses to start in production without SMTP_URL (mail would go to a logged outbox)', async () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(32),
      ROLE: 'api',
      DATA_DIR: 'memory://',
    });
    await expect(buildApp({ config })).rejects.toThrow(PRODUCTION_NEEDS_SMTP);
    expect(PRODUCTION_NEEDS_SMTP).toMatch(/SMTP_URL: required in production/);
  });

  it('sends the reset link by mail and never writes it to the log', async () => {
    const user = await seedUser(t.app);
    const r = await t.gql(
      'mutation($input: UserRequestPasswordResetInput!) { userRequestPasswordReset(input: $input) { success } }',
      { input: { email: user.user.username } },
    );
    expect(r.errors).toBeUndefined();
    const mail = await vi.waitFor(
      () => {
        const m = smtp.inbox.find((r) => r.to.includes(user.user.username));
        if (!m) throw new Error('no reset mail yet');
        return m;
      },
      { timeout: 15_000, interval: 50 },
    );
    const unQp = mail.raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    const value = /\/password\/reset\?token=([A-Za-z0-9_-]+)/.exec(unQp)?.[1] ?? '';
    expect(value.length).toBeGreaterThan(10);
    expect(raw.join('\n')).not.toContain(value);
    expect(raw.join('\n')).not.toMatch(/password\/reset\?token=/);
  });

  it('redacts capabilities in access logs: sig=, seller report tokens, access_token=, Bearer keys', async () => {
    const secrets = [
      'sigsecret0123456789',
      'rws_SellerSecretToken0123456789abcdef',
      'rw_live_KeySecret0123456789abcdefghijkl',
    ];
    await fetch(`${t.url}/upload/uploads/x.mp4?contentType=video%2Fmp4&max=10&expires=1&sig=${secrets[0]}`, {
      method: 'PUT',
      body: 'x',
    });
    await fetch(`${t.url}/seller-report/${secrets[1]}`);
    await fetch(`${t.url}/query?access_token=${secrets[2]}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":"{ __typename }"}',
    });
    await fetch(`${t.url}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secrets[2]}` },
      body: '{"query":"{ __typename }"}',
    });
    const text = raw.join('\n');
    for (const s of secrets) expect(text).not.toContain(s.replace(/^rws_|^rw_live_/, ''));
    const urls = lines().map((l) => (l.req as { url?: string } | undefined)?.url ?? '');
    expect(urls).toContain('/upload/uploads/x.mp4?contentType=video%2Fmp4&max=10&expires=1&sig=[redacted]');
    expect(urls).toContain('/seller-report/rws_[redacted]');
    expect(urls).toContain('/query?access_token=[redacted]');
  });

  it('a mutation sent by GET answers 400 BAD_USER_INPUT; refused subscriptions log below error level', async () => {
    const before = raw.length;
    const get = await fetch(
      `${t.url}/query?query=${encodeURIComponent('mutation { userActivationEmailResend(email: "a@example.com") { success } }')}`,
    );
    expect(get.status).toBe(400);
    const body = (await get.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
    expect(body.errors[0]!.extensions.code).toBe(ERROR_CODES.BAD_USER_INPUT);
    expect(body.errors[0]!.message).toMatch(/GET request may only run a query/);
    const unauthenticated = await wsSubscribe(t.url, { query: 'subscription { tourLeadCreated { id } }' });
    expect(unauthenticated.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UNAUTHENTICATED);
    const unknown = await wsSubscribe(t.url, { query: 'subscription { nope }' });
    expect(unknown.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.BAD_USER_INPUT);
    const progress = await wsSubscribe(t.url, { query: `subscription { ${SUB_ROOT} { progress } }` });
    expect(progress.errors?.length).toBeGreaterThan(0);
    // Mercurius logs each refused subscription; those lines are written at info.
    await vi.waitFor(
      () =>
        expect(
          lines()
            .slice(before)
            .filter((l) => l.msg === 'refused a client request').length,
        ).toBeGreaterThanOrEqual(2),
      { timeout: 5000, interval: 20 },
    );
    expect(
      lines()
        .slice(before)
        .filter((l) => l.level >= 50),
    ).toEqual([]);
  });

  it('no line of the whole run was written at error level', () => {
    expect(lines().filter((l) => l.level >= 50)).toEqual([]);
  });
});

describe('redactSecrets', () => {
  it('keeps ids and hashes, removes tokens from paths, queries and headers', () => {
    expect(redactSecrets('/media/tours/7c1e4b2a-1111-4222-8333-123456789abc/v1/clips/0000-high.mp4')).toBe(
      '/media/tours/7c1e4b2a-1111-4222-8333-123456789abc/v1/clips/0000-high.mp4',
    );
    expect(redactSecrets('/account/activate?token=abc.def&x=1')).toBe('/account/activate?token=[redacted]&x=1');
    expect(redactSecrets('/signup?inviteToken=zzz&email=a%40b.c')).toBe('/signup?inviteToken=[redacted]&email=a%40b.c');
    expect(redactSecrets('/billing/portal/Q2hlY2tvdXRTZXNzaW9uU2VjcmV0VG9rZW4wMTIzNDU2Nzg5')).toBe(
      '/billing/portal/[redacted]',
    );
    expect(redactSecrets('"authorization":"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"')).toBe(
      '"authorization":"Bearer [redacted]"',
    );
    expect(redactSecrets('/b/k?X-Amz-Signature=0123abcd&X-Amz-Credential=AKIA%2F2026')).toBe(
      '/b/k?X-Amz-Signature=[redacted]&X-Amz-Credential=[redacted]',
    );
  });
});
