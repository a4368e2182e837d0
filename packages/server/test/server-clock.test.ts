/**
 * What expires by the calendar follows the server's one clock (core/clock.ts serverNow; docs/code-map.md), not the
 * system's: a licence's end and a live viewing session's end are compared with it, so moving a development server's
 * clock (POST /dev/clock, setClockOffset) shows them expired, as it does audience links (test/audience-links.test.ts).
 */
import { ROLES } from '@roomwalk/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffset } from '../src/core/clock.js';
import { issueSession } from '../src/services/accounts.js';
import { hostSession } from '../src/services/live/sessions.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { seedProcessedTour } from './fixtures/tours.js';

const DAY = 86_400_000;

describe("the server's clock decides what has expired", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
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
});
