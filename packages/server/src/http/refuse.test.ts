/** refuse(): the one shape of a plain route's refusal, its status from errorCodeToHttpStatus. */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { errorCodeToHttpStatus, refuse } from './refuse.js';

describe('refuse', () => {
  it("answers the code's status from the one table, { error, code, message } and no caching", async () => {
    const app = Fastify();
    app.get('/gone', (_req, reply) => refuse(reply, ERROR_CODES.NOT_FOUND, 'This upload was not found.'));
    app.get('/limited', (_req, reply) => refuse(reply, ERROR_CODES.RATE_LIMITED, 'Too many requests.'));
    const gone = await app.inject({ url: '/gone' });
    expect(gone.statusCode).toBe(errorCodeToHttpStatus.NOT_FOUND);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: 'This upload was not found.', code: 'NOT_FOUND', message: 'This upload was not found.' });
    expect(gone.headers['cache-control']).toBe('no-store');
    expect((await app.inject({ url: '/limited' })).statusCode).toBe(429);
    await app.close();
  });

  it('gives a transport status beside the code, and asks to drop the connection when the body was not read', async () => {
    const app = Fastify();
    app.put('/big', (_req, reply) => refuse(reply, ERROR_CODES.UPLOAD_INVALID, 'The video is too large.', { status: 413 }));
    app.put('/forged', (_req, reply) => refuse(reply, ERROR_CODES.UPLOAD_INVALID, 'This upload link is not valid.', { status: 403, unreadBody: true }));
    app.post('/oauth', (_req, reply) => refuse(reply, ERROR_CODES.INVALID_CREDENTIALS, 'Wrong.', { error: 'invalid_grant' }));
    const big = await app.inject({ method: 'PUT', url: '/big' });
    expect([big.statusCode, big.json().code, big.headers.connection]).toEqual([413, 'UPLOAD_INVALID', 'close']);
    const forged = await app.inject({ method: 'PUT', url: '/forged' });
    expect([forged.statusCode, forged.headers.connection]).toEqual([403, 'close']);
    const oauth = await app.inject({ method: 'POST', url: '/oauth' });
    expect([oauth.statusCode, oauth.json()]).toEqual([401, { error: 'invalid_grant', code: 'INVALID_CREDENTIALS', message: 'Wrong.' }]);
    await app.close();
  });
});
