/**
 * What a client sees of an error is decided in one place (src/graphql/errors.ts), alike on HTTP and on the graphql-ws
 * WebSocket: an AppError keeps its code and message; an unexpected error (here a failing human-check service and a
 * failing event bus, injected into the running app) answers the generic text with code INTERNAL and nothing of the
 * original: no message, no stack, no path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';

const INTERNAL_TEXT = 'ECONNREFUSED 10.0.0.7:5432 relation "secret_table"';
const leaks = (body: unknown) =>
  /ECONNREFUSED|secret_table|10\.0\.0\.7|\.ts:\d+|\bat \w+ \(/.test(JSON.stringify(body));

const REGISTER = `mutation ($input: UserRegisterInput!) { userRegister(input: $input) { id } }`;
const registerInput = () => ({
  username: `mask-${Math.random().toString(36).slice(2)}@example.com`,
  password: 'a-Long-passw0rd!',
  name: 'Mia',
  surname: 'Mask',
  acceptedTerms: true,
  turnstileToken: 'XXXX.DUMMY.TOKEN.XXXX',
});

describe('error masking on HTTP and WebSocket', () => {
  let t: TestApp;
  let user: SeededUser;
  beforeAll(async () => {
    t = await startTestApp('pglite', { RATE_LIMIT_DISABLED: true });
    user = await seedUser(t.app);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('HTTP: an unexpected error in a resolver answers INTERNAL with the generic text; an AppError keeps its code', async () => {
    const { humanCheck } = t.app.services;
    const verify = humanCheck.verify;
    try {
      humanCheck.verify = async () => false;
      const refused = await t.gql(REGISTER, { input: registerInput() });
      expect(refused.errors?.[0]).toMatchObject({
        message: ERROR_TEXTS.humanCheckFailed,
        extensions: { code: ERROR_CODES.HUMAN_CHECK_FAILED },
      });

      humanCheck.verify = async () => {
        throw new Error(INTERNAL_TEXT);
      };
      const failed = await t.gql(REGISTER, { input: registerInput() });
      expect(failed.status).toBe(200);
      expect(failed.errors).toHaveLength(1);
      expect(failed.errors?.[0]).toMatchObject({
        message: ERROR_TEXTS.unexpected,
        extensions: { code: ERROR_CODES.INTERNAL },
      });
      expect(Object.keys(failed.errors![0]!.extensions ?? {})).toEqual(['code']);
      expect(leaks(failed)).toBe(false);
    } finally {
      humanCheck.verify = verify;
    }
  });

  function firstError(
    token: string | undefined,
    query: string,
  ): Promise<{ message: string; extensions?: Record<string, unknown> }> {
    const client = t.wsClient(token);
    return new Promise((resolve, reject) => {
      client.subscribe(
        { query },
        {
          next: (v) => (v.errors ? resolve(v.errors[0] as never) : reject(new Error('expected an error'))),
          error: (e) => resolve((Array.isArray(e) ? e[0] : e) as never),
          complete: () => reject(new Error('completed without an error')),
        },
      );
    });
  }

  it('WebSocket: an unexpected error starting a subscription answers INTERNAL with the generic text; an AppError keeps its code', async () => {
    const query = 'subscription { tourLeadCreated { id } }';
    const anonymous = await firstError(undefined, query);
    expect(anonymous).toMatchObject({ extensions: { code: ERROR_CODES.UNAUTHENTICATED } });

    const { events } = t.app.services;
    const subscribe = events.subscribe;
    try {
      events.subscribe = () => {
        throw new Error(INTERNAL_TEXT);
      };
      const failed = await firstError(user.token, query);
      expect(failed).toMatchObject({ message: ERROR_TEXTS.unexpected, extensions: { code: ERROR_CODES.INTERNAL } });
      expect(Object.keys(failed.extensions ?? {})).toEqual(['code']);
      expect(leaks(failed)).toBe(false);
    } finally {
      events.subscribe = subscribe;
    }
  });
});
