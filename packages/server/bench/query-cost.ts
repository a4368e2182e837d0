/**
 * CPU of the worst signed-in GraphQL documents ("every document refused or answered within 50 ms of CPU"),
 * against the real app in this process (ROLE api, rate limits off) on PostgreSQL as in production, or PGlite. The data
 * is the largest the limits let one company hold in a page: an agent with 100 tours (the first five with 250 clips and
 * 100 markers each), a company of 100 members with five tours each, an API key. Each document is sent five times and
 * the least CPU of this process (the server's work and the client's, an upper bound) is printed with the load average
 * and whether it was answered or refused; the anonymous baseline in the same run is the player's tour document.
 *
 *   npm run bench:query-cost -w packages/server [-- pglite]
 *   TEST_DATABASE_URL / DATABASE_URL: the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 */
import os from 'node:os';
import { PLAYER_TOUR_QUERY } from '@roomwalk/shared/player-documents';
import { seedUser } from '../test/helpers/seed.js';
import { startTestApp } from '../test/helpers/test-app.js';
import { signedInDocuments } from '../test/fixtures/signed-in-documents.js';

const BUDGET_MS = 50;
const kind = process.argv.includes('pglite') ? 'pglite' : 'postgres';
process.env.TEST_DATABASE_URL ??= process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const t = await startTestApp(kind, { RATE_LIMIT_DISABLED: true, ROLE: 'api' });
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

try {
  const db = t.app.services.db;
  const agent = await seedUser(t.app, { plan: 'pro' });
  const tours = await db
    .insertInto('tours')
    .values(
      Array.from({ length: 100 }, (_, i) => ({
        company_id: agent.company.id,
        owner_id: agent.user.id,
        title: `Tour ${i}`,
        description: 'A house',
        status: 'PROCESSED' as const,
        progress: 100,
        video_info: JSON.stringify({ width: 1280, height: 720, fullSize: 0, mediumSize: 0, smallSize: 0 }),
        fps: 15,
        clips_version: 1,
        processing_attempt: 1,
      })),
    )
    .returning('id')
    .execute();
  for (const tour of tours.slice(0, 5)) {
    await db
      .insertInto('clips')
      .values(
        Array.from({ length: 250 }, (_, i) => ({
          tour_id: tour.id,
          index: i,
          frame_count: 36,
          duration: 2.4,
          high_key: `tours/${tour.id}/v1/clips/${i}-high.mp4`,
          low_key: `tours/${tour.id}/v1/clips/${i}-low.mp4`,
        })),
      )
      .execute();
    await db
      .insertInto('markers')
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          tour_id: tour.id,
          name: `Room ${i}`,
          description: 'A room',
          frame_index: i * 80,
          scroll_position: i,
          is_fast_travel: false,
        })),
      )
      .execute();
  }
  // 99 more members, each with five tours, joined through accepted invites.
  for (let m = 0; m < 99; m++) {
    const member = await seedUser(t.app, { companyId: agent.company.id });
    await db
      .insertInto('team_invites')
      .values({
        company_id: agent.company.id,
        email: member.user.username,
        token_hash: `bench-${m}`,
        accepted: true,
        accepted_user_id: member.user.id,
        expires_at: new Date(Date.now() + 86_400_000),
      })
      .execute();
    await db
      .insertInto('tours')
      .values(
        Array.from({ length: 5 }, (_, i) => ({
          company_id: agent.company.id,
          owner_id: member.user.id,
          title: `M${m} ${i}`,
          status: 'PROCESSED' as const,
          progress: 100,
          fps: 15,
          clips_version: 1,
          processing_attempt: 1,
        })),
      )
      .execute();
  }
  const key = (await t.gql('mutation { apiKeyCreate(input: { name: "Bench" }) { secret } }', {}, agent.token)).data
    .apiKeyCreate.secret as string;

  const post = async (query: string, variables: unknown, token?: string) => {
    const res = await fetch(`${t.url}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const json = (await res.json()) as { data?: unknown; errors?: Array<{ extensions?: { code?: string } }> };
    return json.errors?.[0]?.extensions?.code ?? 'answered';
  };
  const measure = async (name: string, query: string, variables: unknown, token?: string) => {
    let best = Number.POSITIVE_INFINITY;
    let outcome = '';
    for (let i = 0; i < 5; i++) {
      const c0 = process.cpuUsage();
      outcome = await post(query, variables, token);
      const c = process.cpuUsage(c0);
      best = Math.min(best, (c.user + c.system) / 1000);
    }
    console.log(
      `${best.toFixed(1).padStart(6)} ms CPU  ${best <= BUDGET_MS ? '  ' : '!!'} ${outcome.padEnd(18)} ${name} (load ${load()})`,
    );
    return best;
  };

  console.log(`query cost bench on ${kind}, budget ${BUDGET_MS} ms of CPU per document (best of 5), load ${load()}`);
  await measure('anonymous: the player tour document, 250 clips (baseline)', PLAYER_TOUR_QUERY, {
    tourID: `tour_${tours[0]!.id}`,
  });
  let worst = 0;
  let worstName = '';
  for (const [name, d] of Object.entries(signedInDocuments)) {
    for (const [who, token] of [
      ['agent', agent.token],
      ['API key', key],
    ] as const) {
      const ms = await measure(`${who}: ${name}`, d.query, d.variables, token);
      if (ms > worst) [worst, worstName] = [ms, `${who}: ${name}`];
    }
  }
  console.log(`worst: ${worst.toFixed(1)} ms CPU, ${worstName} (load ${load()})`);
} finally {
  await t.stop();
}
