/**
 * The query cost of signed-in documents ("every document refused or answered within 50 ms of CPU" held for
 * anonymous ones only): a paged list costs what `first`/`last` ask, capped at the page's most, read from the request's
 * variables on every request (cached documents too), and its default page when neither is given. Asserts what is
 * refused and what is answered, not timings; `npm run bench:query-cost -w packages/server` prints the CPU of the worst
 * signed-in documents with the load average.
 */
import { parse, type GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { getSchema } from '../../src/graphql/schema.js';
import { PAGE_SIZES, QUERY_LIMITS, checkQueryLimits, type PageVariables } from '../../src/graphql/limits.js';
import { seedUser, type SeededUser } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { seedProcessedTour } from '../fixtures/tours.js';
import { signedInDocuments } from '../fixtures/signed-in-documents.js';

/** The cost the limits report for a document (null when within every limit). */
function refusal(schema: GraphQLSchema, query: string, variables?: PageVariables): string | null {
  const errors = checkQueryLimits(schema, parse(query), variables);
  return errors.length ? errors.map((e) => e.message).join('; ') : null;
}

/** Each tour with every clip: 250 clips a tour at most, four fields each (about 1,000 a tour). */
const TOURS_WITH_CLIPS = (page: string) =>
  `query${page.includes('$n') ? '($n: Int)' : ''} { tours${page} { edges { node { id clips { id index highURI lowURI } } } } }`;
const OVER_COST = new RegExp(`cost \\d+ > ${QUERY_LIMITS.maxCost}`);

describe('query cost of paged lists (signed-in documents)', () => {
  const schema = getSchema();

  it('counts a page as what first or last asks, up to the most a page holds, and the default page without them', () => {
    // 2 tours with their clips are within the limit; 10 (the default page, counted as one before) or 100 are not.
    expect(refusal(schema, TOURS_WITH_CLIPS('(first: 2)'))).toBeNull();
    expect(refusal(schema, TOURS_WITH_CLIPS('(last: 2)'))).toBeNull();
    expect(refusal(schema, TOURS_WITH_CLIPS(''))).toMatch(OVER_COST);
    expect(refusal(schema, TOURS_WITH_CLIPS('(first: 100)'))).toMatch(OVER_COST);
    // Asking more than a page holds costs what a full page does.
    expect(refusal(schema, TOURS_WITH_CLIPS('(first: 100000)'))).toBe(
      refusal(schema, TOURS_WITH_CLIPS(`(first: ${PAGE_SIZES['Query.tours'].maxSize})`)),
    );
    // Invites: 100 members' top five tours with their clips.
    const invites = (first: number) =>
      `{ me { user { company { invites(first: ${first}) { edges { node { user { topFiveTours { clips { id } } } } } } } } } }`;
    expect(refusal(schema, invites(500))).toMatch(OVER_COST);
    expect(refusal(schema, invites(1))).toBeNull();
  });

  it('reads a page size given as a variable from the variables sent, else its default; unknown, the fewest', () => {
    const doc = TOURS_WITH_CLIPS('(first: $n)');
    expect(refusal(schema, doc, { n: 2 })).toBeNull();
    expect(refusal(schema, doc, { n: 100 })).toMatch(OVER_COST);
    expect(refusal(schema, doc.replace('$n: Int', '$n: Int = 100'), {})).toMatch(OVER_COST);
    expect(refusal(schema, doc.replace('$n: Int', '$n: Int = 2'), {})).toBeNull();
    expect(refusal(schema, doc, {})).toMatch(OVER_COST); // not sent, no default: the default page (10)
    expect(refusal(schema, doc, 'most')).toMatch(OVER_COST); // subscriptions: the most a page holds
    expect(refusal(schema, doc, 'unknown')).toBeNull(); // before the variables are known: checked again with them
  });

  it("lets the console's and an integration's usual documents through", () => {
    for (const [name, { query, variables }] of Object.entries(signedInDocuments)) {
      if (name.startsWith('worst')) continue;
      expect(refusal(schema, query, variables), name).toBeNull();
    }
  });

  it('has a page size for every paged list of the schema (a new connection is counted, not taken for one item)', () => {
    const paged: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!('getFields' in type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields() as Record<string, { args?: ReadonlyArray<{ name: string }> }>))
        if (field.args?.some((a) => a.name === 'first'))
          paged.push(`${type.name}.${(field as unknown as { name: string }).name}`);
    }
    expect(paged.sort()).toEqual(Object.keys(PAGE_SIZES).sort());
  });
});

describe('query cost against the real app: signed in, with an API key, and cached documents', () => {
  const schema = getSchema();
  let t: TestApp;
  let agent: SeededUser;
  let apiKey: string;
  beforeAll(async () => {
    t = await startTestApp('pglite', { RATE_LIMIT_DISABLED: true, ROLE: 'api' });
    agent = await seedUser(t.app, { plan: 'pro' });
    for (let i = 0; i < 3; i++) await seedProcessedTour(t, agent, 4);
    const created = await t.gql(`mutation { apiKeyCreate(input: { name: "Site" }) { secret } }`, {}, agent.token);
    apiKey = created.data.apiKeyCreate.secret;
  });
  afterAll(() => t?.stop());

  const post = async (query: string, variables: Record<string, unknown>, token: string) => {
    const res = await fetch(`${t.url}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return {
      status: res.status,
      json: (await res.json()) as { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> },
    };
  };

  it('refuses the same document, cached after a small page, when its variables ask for a large one', async () => {
    // Clip ids only (about 250 a tour): a page of 10, as every `first` counted before, is within the limit; 100 is not.
    const doc = 'query($n: Int) { tours(first: $n) { edges { node { id clips { id } } } } }';
    expect(refusal(schema, doc, { n: 10 })).toBeNull();
    for (const token of [agent.token, apiKey]) {
      const small = await post(doc, { n: 2 }, token);
      expect(small.json.errors).toBeUndefined();
      expect(small.json.data.tours.edges).toHaveLength(2);
      expect(small.json.data.tours.edges[0].node.clips).toHaveLength(4);
      const again = await post(doc, { n: 2 }, token); // now served from the document cache (validation skipped)
      expect(again.json.data.tours.edges).toHaveLength(2);
      const large = await post(doc, { n: 100 }, token);
      expect(large.json.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.QUERY_TOO_COMPLEX);
      expect(large.json.errors?.[0]?.message).toMatch(OVER_COST);
      expect(large.json.data ?? null).toBeNull();
    }
  });

  it('holds an anonymous caller to the lower limit, cached documents too: three long tours answer signed in only', async () => {
    const { id } = await seedProcessedTour(t, agent, 4);
    const tour = (i: number) =>
      `t${i}: tour(tourID: $id) { id clips { id index highURI lowURI frameCount duration } markers { id name description tourId scrollPosition frameIndex isFastTravel } }`;
    const three = `query($id: ID!) { ${[0, 1, 2].map(tour).join(' ')} }`;
    const signedIn = await post(three, { id }, agent.token);
    expect(signedIn.json.errors).toBeUndefined();
    expect(signedIn.json.data.t2.clips).toHaveLength(4);
    const anonymous = await fetch(`${t.url}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: three, variables: { id } }),
    });
    const answer = (await anonymous.json()) as {
      data?: unknown;
      errors?: Array<{ message: string; extensions?: { code?: string } }>;
    };
    expect(answer.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.QUERY_TOO_COMPLEX);
    expect(answer.errors?.[0]?.message).toMatch(new RegExp(`cost \\d+ > ${QUERY_LIMITS.maxAnonymousCost}`));
    expect(answer.data ?? null).toBeNull();
  });

  it("answers the console's documents and refuses the worst signed-in ones before running them", async () => {
    for (const [name, { query, variables }] of Object.entries(signedInDocuments)) {
      const r = await post(query, variables, agent.token);
      if (name.startsWith('worst'))
        expect(r.json.errors?.[0]?.extensions?.code, name).toBe(ERROR_CODES.QUERY_TOO_COMPLEX);
      else expect(r.json.errors, name).toBeUndefined();
    }
  });
});
