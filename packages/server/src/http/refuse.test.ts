/** refuse(): the one shape of a plain route's refusal, its status from errorCodeToHttpStatus. */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { errorCodeToHttpStatus, refuse, refuseFrameworkError, refuseGraphQL } from './refuse.js';

describe('refuse', () => {
  it("answers the code's status from the one table, { error, code, message } and no caching", async () => {
    const app = Fastify();
    app.get('/gone', (_req, reply) => refuse(reply, ERROR_CODES.NOT_FOUND, 'This upload was not found.'));
    app.get('/limited', (_req, reply) => refuse(reply, ERROR_CODES.RATE_LIMITED, 'Too many requests.'));
    const gone = await app.inject({ url: '/gone' });
    expect(gone.statusCode).toBe(errorCodeToHttpStatus.NOT_FOUND);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({
      error: 'This upload was not found.',
      code: 'NOT_FOUND',
      message: 'This upload was not found.',
    });
    expect(gone.headers['cache-control']).toBe('no-store');
    expect((await app.inject({ url: '/limited' })).statusCode).toBe(429);
    await app.close();
  });

  it('gives a transport status beside the code, and asks to drop the connection when the body was not read', async () => {
    const app = Fastify();
    app.put('/big', (_req, reply) =>
      refuse(reply, ERROR_CODES.UPLOAD_INVALID, 'The video is too large.', { status: 413 }),
    );
    app.put('/forged', (_req, reply) =>
      refuse(reply, ERROR_CODES.UPLOAD_INVALID, 'This upload link is not valid.', { status: 403, unreadBody: true }),
    );
    app.post('/oauth', (_req, reply) =>
      refuse(reply, ERROR_CODES.INVALID_CREDENTIALS, 'Wrong.', { error: 'invalid_grant' }),
    );
    const big = await app.inject({ method: 'PUT', url: '/big' });
    expect([big.statusCode, big.json().code, big.headers.connection]).toEqual([413, 'UPLOAD_INVALID', 'close']);
    const forged = await app.inject({ method: 'PUT', url: '/forged' });
    expect([forged.statusCode, forged.headers.connection]).toEqual([403, 'close']);
    const oauth = await app.inject({ method: 'POST', url: '/oauth' });
    expect([oauth.statusCode, oauth.json()]).toEqual([
      401,
      { error: 'invalid_grant', code: 'INVALID_CREDENTIALS', message: 'Wrong.' },
    ]);
    await app.close();
  });

  it('answers JSON even when the route had named its content (a video) before it refused', async () => {
    const app = Fastify();
    app.get('/video', (_req, reply) =>
      refuse(reply.type('video/mp4'), ERROR_CODES.BAD_USER_INPUT, 'Outside the file.', { status: 416 }),
    );
    const res = await app.inject({ url: '/video' });
    expect([res.statusCode, res.headers['content-type'], res.json().code]).toEqual([
      416,
      'application/json; charset=utf-8',
      'BAD_USER_INPUT',
    ]);
    await app.close();
  });

  it("refuses before GraphQL runs in GraphQL's error shape, with the table's status", async () => {
    const app = Fastify();
    app.post('/query', (_req, reply) =>
      refuseGraphQL(reply, ERROR_CODES.RATE_LIMITED, 'Too many requests.', { retryAfterSeconds: 5 }),
    );
    const res = await app.inject({ method: 'POST', url: '/query' });
    expect([res.statusCode, res.json()]).toEqual([
      429,
      {
        data: null,
        errors: [{ message: 'Too many requests.', extensions: { code: 'RATE_LIMITED', retryAfterSeconds: 5 } }],
      },
    ]);
    await app.close();
  });

  it("keeps the status of Fastify's own errors, gives them a code, and shows nothing of a 5xx", async () => {
    const app = Fastify({ logger: false });
    app.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) =>
      refuseFrameworkError(reply, err.statusCode ?? 500, err.message),
    );
    app.post('/json', () => ({ ok: true }));
    app.get('/boom', () => {
      throw new Error('secret detail');
    });
    const bad = await app.inject({
      method: 'POST',
      url: '/json',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'BAD_USER_INPUT']);
    const boom = await app.inject({ url: '/boom' });
    expect([boom.statusCode, boom.json()]).toEqual([
      500,
      { error: 'Internal Server Error', code: 'INTERNAL', message: 'Something went wrong. Please try again.' },
    ]);
    await app.close();
  });
});
