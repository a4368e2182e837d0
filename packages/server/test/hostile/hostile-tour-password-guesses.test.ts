/**
 * Guessing a tour's password from many addresses locks nobody else out (docs/access-and-privacy.md, "Rate limits"):
 * each attacking address spends its own budget (per address and tour, per address) and then waits; once the tour has
 * had its share of wrong guesses from anywhere, every guess needs a human check, which an honest visitor from another
 * address passes and gets in. Eleven loopback addresses guess 110 times (more than the old per-tour lockout of 100).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_TURNSTILE_TOKEN, ERROR_CODES } from '@roomwalk/shared';
import { seedProcessedTour } from '../fixtures/tours.js';
import { seedUser, type SeededUser } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { gqlPost } from './harness.js';

const SET_ACCESS = 'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id access } }';
const UNLOCK = `mutation($tourID: ID!, $password: String!, $turnstileToken: String) {
  tourUnlock(tourID: $tourID, password: $password, turnstileToken: $turnstileToken) { access }
}`;
/** Attackers' addresses (the kernel routes all of 127/8 to a 127.0.0.1 listener); the honest visitor's is apart. */
const ATTACKERS = Array.from({ length: 11 }, (_, i) => `127.0.0.${10 + i}`);
const HONEST = '127.0.0.99';

describe('hostile: tour password guesses from many addresses', () => {
  let t: TestApp;
  let owner: SeededUser;
  let tourID: string;
  const unlock = (password: string, from: string, turnstileToken?: string) =>
    gqlPost(t.url, UNLOCK, { tourID, password, ...(turnstileToken ? { turnstileToken } : {}) }, from);
  const codeOf = (r: { json: any }) => r.json.errors?.[0]?.extensions?.code as string | undefined;

  beforeAll(async () => {
    t = await startTestApp('pglite', {});
    owner = await seedUser(t.app, { plan: 'pro' });
    tourID = (await seedProcessedTour(t, owner, 2)).id;
    const r = await t.gql(
      SET_ACCESS,
      { input: { id: tourID, access: 'PASSWORD', password: 'honest-pass' } },
      owner.token,
    );
    expect(r.errors).toBeUndefined();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('attackers exhaust their own budgets; the honest visitor gets in after a human check, never locked out', async () => {
    const tally: Record<string, number> = {};
    for (const from of ATTACKERS)
      for (let i = 0; i < 10; i++) {
        const code = codeOf(await unlock(`guess ${from} ${i}`, from)) ?? 'OK';
        tally[code] = (tally[code] ?? 0) + 1;
      }
    // No guess opened the tour; past the tour's share every guess without a check was refused unchecked.
    expect(tally.OK).toBeUndefined();
    expect(tally[ERROR_CODES.TOUR_PASSWORD_WRONG]).toBeGreaterThan(0);
    expect(tally[ERROR_CODES.HUMAN_CHECK_FAILED]).toBeGreaterThan(0);
    // Each attacker's own budget for the tour is spent: it waits, even with a human check.
    for (const from of ATTACKERS.slice(0, 2))
      expect(codeOf(await unlock('honest-pass', from, DEV_TURNSTILE_TOKEN))).toBe(ERROR_CODES.RATE_LIMITED);

    // The honest visitor from another address: asked for the human check, not refused.
    const unchecked = await unlock('honest-pass', HONEST);
    expect(codeOf(unchecked)).toBe(ERROR_CODES.HUMAN_CHECK_FAILED);
    expect(unchecked.json.errors[0].extensions.humanCheck).toBe(true);
    expect(codeOf(await unlock('honest-pass', HONEST, 'not-a-real-check'))).toBe(ERROR_CODES.HUMAN_CHECK_FAILED);
    const checked = await unlock('honest-pass', HONEST, DEV_TURNSTILE_TOKEN);
    expect(checked.json.errors).toBeUndefined();
    expect(checked.json.data.tourUnlock.access).toEqual(expect.any(String));
    // A checked wrong guess from the honest address is still only a wrong guess.
    expect(codeOf(await unlock('typo', HONEST, DEV_TURNSTILE_TOKEN))).toBe(ERROR_CODES.TOUR_PASSWORD_WRONG);
  });

  it('one address guessing at many tours is stopped by its own budget over every tour', async () => {
    const from = '127.0.0.120';
    const tours: string[] = [];
    for (let i = 0; i < 4; i++) {
      const id = (await seedProcessedTour(t, owner, 1)).id;
      await t.gql(SET_ACCESS, { input: { id, access: 'PASSWORD', password: 'another-pass' } }, owner.token);
      tours.push(id);
    }
    const codes: string[] = [];
    for (const id of tours)
      for (let i = 0; i < 9; i++) {
        const r = await gqlPost(t.url, UNLOCK, { tourID: id, password: `g${i}` }, from);
        codes.push(codeOf(r) ?? 'OK');
      }
    expect(codes.filter((c) => c === ERROR_CODES.TOUR_PASSWORD_WRONG)).toHaveLength(30);
    expect(codes.at(-1)).toBe(ERROR_CODES.RATE_LIMITED);
  });
});
