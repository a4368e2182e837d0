/**
 * Burying an agent in lead mails (docs/access-and-privacy.md, "Mails to the agent"): leads at a tour's approval gate
 * from three addresses, each up to its own limit. The agent gets the first LEAD_MAILS_PER_TOUR_HOUR mails of the hour
 * and no more; every lead is still recorded, listed in Leads and announced to the console's live notice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_MAILS_PER_TOUR_HOUR } from '../../src/services/lead-gate/agent-mails.js';
import { topics } from '../../src/events/event-bus.js';
import { LEAD_MUTATION, leadInput } from '../fixtures/live-helpers.js';
import { seedProcessedTour } from '../fixtures/tours.js';
import { seedUser, type SeededUser } from '../helpers/seed.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/test-app.js';
import { CLIENT_ADDRESSES, gqlPost } from './harness.js';

const GATE_SET = 'mutation($input: TourLeadGateSetInput!) { tourLeadGateSet(input: $input) { id } }';
const MARKER_SAVE = 'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }';
const GATE_LEAD = LEAD_MUTATION.replace('viewingSessionRequest {', 'gate { state } viewingSessionRequest {');
const WAITING = 'query { tourLeads(waiting: true) { id name } }';

describe.each(DB_KINDS)('hostile: lead mails per tour (%s)', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  let tourId: string;
  let rowId: string;

  /**
   * The approval mails queued for the agent: read from the mail queue itself, which the lead's answer waits for (the
   * mail is queued before tourLeadCreate answers), so nothing sent later can be missed.
   */
  const mailsToAgent = async () =>
    (
      await t.app.services.database.executeSql(
        "SELECT data->>'subject' AS subject FROM pgboss.job WHERE name = 'mail' AND data->>'to' = $1 AND data->>'subject' LIKE '%waiting for your approval%'",
        [owner.user.username],
      )
    ).rows as Array<{ subject: string }>;

  beforeAll(async () => {
    // Rate limits on: the cap is one of them.
    t = await startTestApp(kind, { ICE_SERVERS: '[]' });
    owner = await seedUser(t.app, { plan: 'pro' });
    const seeded = await seedProcessedTour(t, owner, 4);
    tourId = seeded.id;
    rowId = seeded.row.id;
    await t.gql(MARKER_SAVE, { input: { tourId, name: 'Hall', frameIndex: 0 } }, owner.token);
    const kitchen = await t.gql(MARKER_SAVE, { input: { tourId, name: 'Kitchen', frameIndex: 80 } }, owner.token);
    expect(kitchen.errors).toBeUndefined();
    const g = await t.gql(
      GATE_SET,
      { input: { id: tourId, mode: 'ROOM', markerId: kitchen.data.markerSave.id, approval: true } },
      owner.token,
    );
    expect(g.errors).toBeUndefined();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('leads from three addresses past the hourly cap are kept, listed and announced, but mail the agent no more', async () => {
    const announced: string[] = [];
    const off = t.app.services.events.on<{ name: string }>(topics.leadCreated(owner.user.id), (l) => {
      announced.push(l.name);
    });
    try {
      const accepted: string[] = [];
      // Ten leads per address in ten minutes (RATE_LIMITS.tourLeadCreate): 30 from three addresses.
      for (let i = 0; i < 10; i++)
        for (const [a, from] of CLIENT_ADDRESSES.entries()) {
          const name = `Guest${a}x${i}`;
          const r = await gqlPost(
            t.url,
            GATE_LEAD,
            {
              input: leadInput(tourId, {
                leadType: 'CONTACT',
                gateFrame: 70,
                name,
                email: `guest${a}-${i}@example.com`,
              }),
            },
            from,
          );
          expect(r.json.errors).toBeUndefined();
          expect(r.json.data.tourLeadCreate.gate.state).toBe('WAITING');
          accepted.push(name);
        }
      expect(accepted.length).toBeGreaterThan(LEAD_MAILS_PER_TOUR_HOUR);
      const mails = await mailsToAgent();
      expect(mails).toHaveLength(LEAD_MAILS_PER_TOUR_HOUR);
      // The first ones were mailed, in the order they came.
      expect(mails.map((m) => m.subject.split(' ')[0]).sort()).toEqual(
        accepted.slice(0, LEAD_MAILS_PER_TOUR_HOUR).sort(),
      );
      // Every lead is recorded, waits in Leads, and was announced to the console.
      const rows = await t.app.services.db
        .selectFrom('tour_leads')
        .select(['name', 'gate'])
        .where('tour_id', '=', rowId)
        .execute();
      expect(rows.map((r) => r.name).sort()).toEqual([...accepted].sort());
      expect(rows.every((r) => r.gate === 'WAITING')).toBe(true);
      const waiting = (await t.gql(WAITING, {}, owner.token)).data.tourLeads as Array<{ name: string }>;
      expect(waiting.map((l) => l.name).sort()).toEqual([...accepted].sort());
      expect([...announced].sort()).toEqual([...accepted].sort());
    } finally {
      off();
    }
  });
});
