/**
 * What expires by the calendar follows the server's one clock (core/clock.ts serverNow; docs/code-map.md), not the
 * system's: a licence's end, a sign-in session, a password-reset link, a shared seller report link, a password tour's
 * grant and a live viewing session are written and checked by it, so moving a development server's clock
 * (POST /dev/clock, setClockOffset) shows them expired, as it does audience links (test/audience-links.test.ts). Each
 * is asked the way its user meets it (HTTP, GraphQL, the scheduled job), and each works again once the clock is back,
 * so what refused it was the clock. The code-map test holds the same rule in the source (no expiry on a clock of its
 * own).
 */
import { ERROR_CODES, PLAN_IDS, ROLES } from '@roomwalk/shared';
import { TOUR_UNLOCK_MUTATION, PLAYER_TOUR_ACCESS_QUERY } from '@roomwalk/shared/player-documents';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setClockOffset } from '../src/core/clock.js';
import { billingExpireQueue } from '../src/jobs/billing-jobs.js';
import { issueSession } from '../src/services/accounts.js';
import { hostSession } from '../src/services/live/sessions.js';
import { TOKEN_TTL_MS } from '../src/auth/one-time-tokens.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { login, signUpActivated, tokenFromLink, uniqueEmail, waitForMail } from './helpers/accounts.js';
import { seedProcessedTour } from './fixtures/tours.js';

const DAY = 86_400_000;

describe("the server's clock decides what has expired", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { RATE_LIMIT_DISABLED: true });
  });
  afterEach(() => setClockOffset(t.app.services, 0));
  afterAll(async () => {
    await t?.stop();
  });

  it("a licence that ends tomorrow gives its plan's role today and none once the server's clock is two days on", async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    await t.app.services.db
      .updateTable('licenses')
      .set({ end_date: new Date(Date.now() + DAY) })
      .where('company_id', '=', owner.company.id)
      .execute();
    const user = owner.user;
    expect((await issueSession(t.app.services, user)).roles).toContain(ROLES.pro);
    setClockOffset(t.app.services, 2 * DAY);
    const later = (await issueSession(t.app.services, user)).roles;
    expect(later).not.toContain(ROLES.pro);
    expect(later).toContain(ROLES.free);
  });

  it("a host's open live session is not found once the server's clock passes its end, and a new one starts", async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const tour = await seedProcessedTour(t, owner);
    const first = await hostSession(t.app.services, tour.row.id, owner.user.id, null);
    expect(first).not.toBeNull();
    expect((await hostSession(t.app.services, tour.row.id, owner.user.id, null))?.id).toBe(first!.id);
    setClockOffset(t.app.services, (t.app.services.config.LIVE_SESSION_TTL_SECONDS + 60) * 1000);
    expect(await hostSession(t.app.services, tour.row.id, owner.user.id, first!.id)).toBeNull();
    const next = await hostSession(t.app.services, tour.row.id, owner.user.id, null);
    expect(next?.id).not.toBe(first!.id);
    expect(next!.expires_at.getTime()).toBeGreaterThan(
      Date.now() + t.app.services.config.LIVE_SESSION_TTL_SECONDS * 1000,
    );
  });

  const ME = '{ me { user { username } } }';
  const move = (ms: number) => setClockOffset(t.app.services, ms);

  it("a sign-in session is refused once the server's clock passes its lifetime, and a new sign-in works", async () => {
    const email = uniqueEmail('clock-session');
    const { token } = await signUpActivated(t, { username: email });
    expect((await t.gql(ME, {}, token)).data.me.user.username).toBe(email);
    move((t.app.config.TOKEN_TTL_SECONDS + 60) * 1000);
    expect((await t.gql(ME, {}, token)).status).toBe(401);
    const fresh = (await login(t, email)).body.access_token as string;
    expect((await t.gql(ME, {}, fresh)).data.me.user.username).toBe(email);
    move(0);
    expect((await t.gql(ME, {}, token)).data.me.user.username).toBe(email);
  });

  it("a password-reset link is refused once the server's clock passes its 60 minutes, and used in time it works", async () => {
    const email = uniqueEmail('clock-reset');
    await signUpActivated(t, { username: email });
    const REQUEST =
      'mutation($input: UserRequestPasswordResetInput!) { userRequestPasswordReset(input: $input) { success } }';
    const RESET = 'mutation($input: UserPasswordResetInput!) { userPasswordReset(input: $input) { username } }';
    await t.gql(REQUEST, { input: { email } });
    const token = tokenFromLink((await waitForMail(t, email, /Reset/)).links[0]!);
    move(TOKEN_TTL_MS.reset + 60_000);
    const late = await t.gql(RESET, { input: { token, newPassword: 'NewSecret456' } });
    expect(late.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.INVALID_TOKEN);
    move(0);
    expect((await t.gql(RESET, { input: { token, newPassword: 'NewSecret456' } })).data.userPasswordReset).toEqual({
      username: email,
    });
  });

  it("a licence past its end by the server's clock is ended by the expiry job: the company is back on the Free Trial", async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const end = new Date(Date.now() + DAY);
    await t.app.services.db
      .updateTable('licenses')
      .set({ end_date: end })
      .where('company_id', '=', owner.company.id)
      .execute();
    const planOf = async () =>
      (
        await t.app.services.db
          .selectFrom('licenses')
          .select('plan_id')
          .where('company_id', '=', owner.company.id)
          .executeTakeFirstOrThrow()
      ).plan_id;
    expect(await planOf()).toBe(PLAN_IDS.pro);
    // Tomorrow by the system's clock, two days ago by the server's: the scheduled job, run now, ends it.
    move(2 * DAY);
    await billingExpireQueue.enqueue(t.app.services, {});
    await vi.waitFor(async () => expect(await planOf()).toBe(PLAN_IDS.free), { timeout: 20_000, interval: 200 });
  });

  it("a shared seller report link and a password tour's grant are refused once the server's clock passes their ends", async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const tour = await seedProcessedTour(t, owner);
    const LINK = 'mutation($input: SellerReportLinkCreateInput!) { sellerReportLinkCreate(input: $input) { url } }';
    const SHARED = 'query($token: String!) { sharedSellerReport(token: $token) { tourTitle } }';
    const created = await t.gql(LINK, { input: { tourId: tour.id, expiresInDays: 1 } }, owner.token);
    expect(created.errors).toBeUndefined();
    const report = (created.data.sellerReportLinkCreate.url as string).split('/').pop()!;
    expect((await t.gql(SHARED, { token: report })).errors).toBeUndefined();

    const SET_ACCESS = 'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id access } }';
    const set = await t.gql(
      SET_ACCESS,
      { input: { id: tour.id, access: 'PASSWORD', password: 'open sesame' } },
      owner.token,
    );
    expect(set.errors).toBeUndefined();
    const grant = (await t.gql(TOUR_UNLOCK_MUTATION, { tourID: tour.id, password: 'open sesame' })).data.tourUnlock
      .access as string;
    const withGrant = () => t.gql(PLAYER_TOUR_ACCESS_QUERY, { tourID: tour.id, access: grant });
    expect((await withGrant()).errors).toBeUndefined();

    move(DAY + 60_000);
    expect((await t.gql(SHARED, { token: report })).errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);
    expect((await withGrant()).errors?.[0]?.extensions?.code).toBe('TOUR_PASSWORD_REQUIRED');
    move(0);
    expect((await t.gql(SHARED, { token: report })).errors).toBeUndefined();
    expect((await withGrant()).errors).toBeUndefined();
  });
});
