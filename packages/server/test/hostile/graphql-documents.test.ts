/**
 * Hostile GraphQL documents against the real app over HTTP and the graphql-ws WebSocket (the
 * standing suite): fragment bombs, fragment cycles, spread and token floods, JSON "ASTs", and a small grammar-based
 * fuzz (deep, wide, aliased, fragment-heavy, cycles, huge strings, many variables, directives, garbage) sent from
 * several client addresses. Each must be refused with a clear code (never INTERNAL, never a stack) or answered, and
 * /healthz must keep answering in < 100 ms meanwhile. Prints the limit-check time of the worst documents built.
 */
import { performance } from 'node:perf_hooks';
import { parse, specifiedRules, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { getSchema } from '../../src/graphql/schema.js';
import { PARSE_OPTIONS, QUERY_LIMITS, checkQueryLimits } from '../../src/graphql/limits.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import {
  CLIENT_ADDRESSES,
  SUB_ROOT,
  Tally,
  describeHealth,
  fragmentBomb,
  gqlPost,
  healthy,
  post,
  whileHealthy,
  wsSubscribe,
  type Health,
  type RawResponse,
  worstAllowedMs,
} from './harness.js';

function expectHealthy(h: Health): void {
  expect(h.worstMs, describeHealth(h)).toBeLessThan(worstAllowedMs(h));
}

/** Refused by our limits (or graphql's rules) with a code the console understands; never INTERNAL or a stack trace. */
const REFUSAL_CODES = new Set<string>([
  ERROR_CODES.QUERY_TOO_COMPLEX,
  ERROR_CODES.BAD_USER_INPUT,
  ERROR_CODES.UNAUTHENTICATED,
  ERROR_CODES.NOT_FOUND,
  ERROR_CODES.INVALID_TOUR_ID,
  ERROR_CODES.FORBIDDEN,
]);

function refusedClearly(r: RawResponse): string | null {
  if (/\bat .+\.(ts|js):\d+/.test(r.text)) return 'stack trace in answer';
  if (r.status >= 500) return `status ${r.status}`;
  const errors = r.json?.errors as Array<{ message?: string; extensions?: { code?: string } }> | undefined;
  if (!errors?.length) return r.json?.data ? null : `no errors and no data: ${r.text.slice(0, 200)}`;
  for (const e of errors) {
    const code = e.extensions?.code;
    if (!code || !REFUSAL_CODES.has(code)) return `code ${code} (${e.message})`;
    if (!e.message) return 'empty message';
  }
  return null;
}

/** mulberry32: a seeded PRNG, so a failing fuzz case can be replayed. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Gen = (r: () => number) => string | { query: unknown; variables?: unknown };
const int = (r: () => number, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const LEAVES = [
  'priceTiers { tierName }',
  '__typename',
  'priceTiers { tierName upTo flatAmount currencySymbol }',
  'tour(tourID: "nonsense") { id }',
  'me { user { id } }',
];

/** The grammar: each generator builds one family of hostile (or merely odd) documents. */
const GENERATORS: Record<string, Gen> = {
  deep: (r) => {
    let sel = 'id';
    for (let i = int(r, 5, 60); i > 0; i--) sel = `topFiveTours { owner { ${sel} } }`;
    return `{ me { user { ${sel} } } }`;
  },
  wide: (r) => `{ ${Array.from({ length: int(r, 50, 1500) }, () => LEAVES[int(r, 0, 1)]).join(' ')} }`,
  aliased: (r) =>
    `{ ${Array.from({ length: int(r, 10, 400) }, (_, i) => `a${i}: ${LEAVES[int(r, 0, LEAVES.length - 1)]}`).join(' ')} }`,
  fragmentHeavy: (r) => fragmentBomb(int(r, 3, 60), 'Query', int(r, 1, 6)),
  manyFragments: (r) => {
    const n = int(r, 20, 400);
    return `query{...G0} ${Array.from({ length: n }, (_, i) => `fragment G${i} on Query{__typename${i + 1 < n ? ` ...G${i + 1} ...G${int(r, i + 1, n - 1)}` : ''}}`).join(' ')}`;
  },
  cycle: (r) => {
    const n = int(r, 1, 30);
    return `query{...C0} ${Array.from({ length: n }, (_, i) => `fragment C${i} on Query{__typename ...C${(i + 1) % n} ...C${int(r, 0, n - 1)}}`).join(' ')}`;
  },
  hugeString: (r) => `{ tour(tourID: "${'x'.repeat(int(r, 1_000, 400_000))}") { id } }`,
  blockString: (r) => `{ tour(tourID: """${'\\"""y'.repeat(int(r, 1_000, 50_000))}""") { id } }`,
  manyVariables: (r) => {
    const n = int(r, 10, 1200);
    return {
      query: `query(${Array.from({ length: n }, (_, i) => `$v${i}: String`).join(', ')}) { __typename }`,
      variables: Object.fromEntries(Array.from({ length: n }, (_, i) => [`v${i}`, 'z'.repeat(int(r, 0, 50))])),
    };
  },
  directives: (r) => `{ priceTiers ${'@include(if: true) '.repeat(int(r, 2, 800))}{ tierName } }`,
  listArgs: (r) => `{ tour(tourID: [${Array.from({ length: int(r, 10, 3000) }, () => '"a"').join(',')}]) { id } }`,
  nestedInput: (r) => `{ tour(tourID: ${'['.repeat(int(r, 10, 3000))}"a"${']'.repeat(int(r, 0, 3000))}) { id } }`,
  garbage: (r) => Array.from({ length: int(r, 1, 3000) }, () => String.fromCharCode(int(r, 1, 0x2fff))).join(''),
  tokens: (r) =>
    Array.from(
      { length: int(r, 10, 6000) },
      () => ['{', '}', '(', ')', '...', 'a', '$x', ':', '@b', '"s"', '1', '[', ']'][int(r, 0, 12)],
    ).join(' '),
  notAString: (r) => ({
    query: [42, { kind: 'Document', definitions: [] }, ['{ __typename }'], null, true][int(r, 0, 4)],
  }),
  jsonAst: (r) =>
    JSON.stringify({
      kind: 'Document',
      definitions:
        r() < 0.5
          ? []
          : [
              {
                kind: 'OperationDefinition',
                operation: 'query',
                selectionSet: {
                  kind: 'SelectionSet',
                  selections: [{ kind: 'Field', name: { kind: 'Name', value: 'priceTiers' } }],
                },
              },
            ],
    }),
};

describe('hostile GraphQL documents (HTTP and WebSocket, real app)', () => {
  let t: TestApp;
  const tally = new Tally('GraphQL documents');
  const figures: string[] = [];
  beforeAll(async () => {
    t = await startTestApp('pglite');
    await gqlPost(t.url, '{ priceTiers { tierName } }'); // warm-up: the first request compiles the schema's resolvers
  });
  afterAll(async () => {
    tally.print(figures.join('; '));
    await t?.stop();
  });

  it('refuses the fragment bomb of the issue at once over HTTP, with __typename or real fields, and /healthz stays fast', async () => {
    const bomb = fragmentBomb(22);
    expect(bomb.length).toBeLessThan(1200);
    const { result: r, health } = await whileHealthy(t.url, () => gqlPost(t.url, bomb));
    figures.push(`22-level __typename bomb over HTTP refused in ${r.ms.toFixed(1)} ms, ${describeHealth(health)}`);
    // graphql-js merges each fragment's fields into the set once: 22 fragments bring __typename 22 times, over the
    // limit of the same field in one selection (counted through named fragments).
    const refusedBomb = r.json?.errors?.[0]?.extensions?.code === ERROR_CODES.QUERY_TOO_COMPLEX;
    tally.record(
      'fragment bomb HTTP',
      refusedBomb && healthy(health),
      `${r.text.slice(0, 200)} ${describeHealth(health)}`,
    );
    expect(r.json.errors[0].message).toMatch(/"__typename" asked more than 10 times/);
    expectHealthy(health);

    const real = fragmentBomb(22).replaceAll('{__typename', '{priceTiers{tierName}');
    const { result: refused, health: health2 } = await whileHealthy(t.url, () => gqlPost(t.url, real));
    figures.push(
      `22-level priceTiers bomb over HTTP refused in ${refused.ms.toFixed(1)} ms, ${describeHealth(health2)}`,
    );
    tally.record(
      'fragment bomb with fields HTTP',
      refused.json?.errors?.[0]?.extensions?.code === ERROR_CODES.QUERY_TOO_COMPLEX && healthy(health2),
      refused.text.slice(0, 200),
    );
    expect(refused.status).toBe(400);
    expect(refused.json.errors[0].extensions.code).toBe(ERROR_CODES.QUERY_TOO_COMPLEX);
    expect(refused.json.errors[0].message).toMatch(
      new RegExp(`cost too high to count|cost \\d+ > ${QUERY_LIMITS.maxCost}`),
    );
    expect(refused.json.data ?? null).toBeNull();
    expectHealthy(health2);
  });

  it('refuses the same bomb over the graphql-ws WebSocket', async () => {
    const { result, health } = await whileHealthy(t.url, () =>
      wsSubscribe(t.url, { query: fragmentBomb(22, 'Subscription') }),
    );
    figures.push(`22-level bomb over WS: ${describeHealth(health)}`);
    tally.record(
      'fragment bomb WS',
      result.errors?.[0]?.extensions?.code === ERROR_CODES.QUERY_TOO_COMPLEX && healthy(health),
      JSON.stringify(result),
    );
    expect(result.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.QUERY_TOO_COMPLEX);
    expectHealthy(health);
  });

  it('refuses fragment cycles, spread floods and documents over the token limit, with the limit named', async () => {
    const cycle = await gqlPost(
      t.url,
      'query{...A} fragment A on Query{__typename ...B} fragment B on Query{__typename ...A}',
    );
    expect(cycle.status).toBe(400);
    expect(cycle.json.errors[0].message).toMatch(/Cannot spread fragment "A" within itself/);
    expect(cycle.json.errors[0].extensions.code).toBe(ERROR_CODES.BAD_USER_INPUT);

    const spreads = Array.from({ length: QUERY_LIMITS.maxFragmentSpreads + 1 }, () => '...S').join(' ');
    const flood = await gqlPost(t.url, `query{ ${spreads} } fragment S on Query{ __typename }`);
    expect(flood.json.errors[0].extensions.code).toBe(ERROR_CODES.QUERY_TOO_COMPLEX);
    expect(flood.json.errors[0].message).toMatch(/fragment spreads/);

    const tokens = `{ ${'__typename '.repeat(QUERY_LIMITS.maxTokens + 1)}}`;
    const big = await gqlPost(t.url, tokens);
    expect(big.status).toBe(400);
    expect(big.json.errors[0].extensions.code).toBe(ERROR_CODES.QUERY_TOO_COMPLEX);
    expect(big.json.errors[0].message).toMatch(/tokens/);
    const bigWs = await wsSubscribe(t.url, {
      query: `subscription { ${SUB_ROOT} { ${'progress '.repeat(QUERY_LIMITS.maxTokens + 1)}} }`,
    });
    expect(bigWs.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.QUERY_TOO_COMPLEX);
    for (const [what, ok] of [
      ['cycle', cycle.status === 400],
      ['spread flood', flood.status === 400],
      ['tokens HTTP', big.status === 400],
      ['tokens WS', !!bigWs.errors],
    ] as const)
      tally.record(what, ok);
  });

  it('refuses a JSON "AST" sent in place of a query string (it would skip the token limit)', async () => {
    const ast = JSON.stringify({
      kind: 'Document',
      definitions: [
        {
          kind: 'OperationDefinition',
          operation: 'query',
          selectionSet: {
            kind: 'SelectionSet',
            selections: [{ kind: 'Field', name: { kind: 'Name', value: 'priceTiers' } }],
          },
        },
      ],
    });
    const r = await gqlPost(t.url, ast);
    expect(r.json.errors[0].extensions.code).toBe(ERROR_CODES.BAD_USER_INPUT);
    expect(r.json.errors[0].message).toBe('The query is not a GraphQL document.');
    const ws = await wsSubscribe(t.url, { query: { kind: 'Document', definitions: [] } });
    expect(ws.closeCode).toBe(4400);
    tally.record('JSON AST HTTP', r.status < 500);
    tally.record('AST object WS', ws.closeCode === 4400);
  });

  it('checks the limits of the worst documents built in a bounded time (printed)', () => {
    const schema = getSchema();
    const worst: Record<string, string> = {
      'bomb 22 levels': fragmentBomb(22),
      'bomb 40 levels x6': fragmentBomb(40, 'Query', 6),
      'bomb at the token limit': fragmentBomb(Math.floor(QUERY_LIMITS.maxTokens / 14), 'Query', 2),
      'same field at the token limit': `{ ${'__typename '.repeat(QUERY_LIMITS.maxTokens - 2)}}`,
      'same leaf at the token limit': `{ ${'priceTiers { tierName } '.repeat(Math.floor((QUERY_LIMITS.maxTokens - 2) / 4))}}`,
      'spreads at the limit': `query{ ${'...S '.repeat(QUERY_LIMITS.maxFragmentSpreads)}} fragment S on Query{ priceTiers { tierName } }`,
      'distinct fragments with one field': `query{ ${Array.from({ length: QUERY_LIMITS.maxFragmentSpreads }, (_, i) => `...D${i}`).join(' ')} } ${Array.from({ length: QUERY_LIMITS.maxFragmentSpreads }, (_, i) => `fragment D${i} on Query{ priceTiers { tierName } }`).join(' ')}`,
      'inline fragments repeating a field': `{ ${'... on Query { priceTiers { tierName } } '.repeat(Math.floor(QUERY_LIMITS.maxTokens / 12))}}`,
      'repeated fields per set under the limit': `{ ${Array.from({ length: 150 }, (_, i) => `a${i % 150}: priceTiers { ${'tierName '.repeat(QUERY_LIMITS.maxSameField)}}`).join(' ')} }`,
    };
    let max = 0;
    for (const [name, doc] of Object.entries(worst)) {
      // CPU time of this process (the work, not the wait for a shared CPU), best of 3; wall time printed beside it.
      let best = Infinity;
      let bestWall = Infinity;
      for (let i = 0; i < 3; i++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        try {
          // As the server does: our limits first, graphql's own rules only for a document within them.
          const document = parse(doc, PARSE_OPTIONS);
          if (checkQueryLimits(schema, document).length === 0) validate(schema, document, specifiedRules);
        } catch {
          /* over the token limit: refused while parsing */
        }
        const c = process.cpuUsage(c0);
        best = Math.min(best, (c.user + c.system) / 1000);
        bestWall = Math.min(bestWall, performance.now() - t0);
      }
      max = Math.max(max, best);
      figures.push(`limit check "${name}" ${best.toFixed(2)} ms CPU (${bestWall.toFixed(2)} ms wall)`);
    }
    console.log(`[hostile] worst limit-check (parse + validate) time: ${max.toFixed(2)} ms CPU`);
  });

  it('fuzz: grammar-built documents over HTTP from several addresses are refused clearly or answered; /healthz stays fast', async () => {
    const r = prng(0x15_2026);
    const names = Object.keys(GENERATORS);
    const cases = names.flatMap((n) => Array.from({ length: 8 }, () => n));
    const before = tally.failures.length;
    const { health } = await whileHealthy(t.url, async () => {
      for (const [i, name] of cases.entries()) {
        const made = GENERATORS[name]!(r);
        const body = typeof made === 'string' ? { query: made } : made;
        const res = await post(`${t.url}/query`, JSON.stringify(body), {
          from: CLIENT_ADDRESSES[i % CLIENT_ADDRESSES.length],
        });
        const problem = refusedClearly(res);
        tally.record(`fuzz ${name} #${i}`, problem === null, problem ?? '');
      }
    });
    figures.push(`fuzz HTTP: ${cases.length} documents, ${describeHealth(health)}`);
    expect(tally.failures.slice(before)).toEqual([]);
    expectHealthy(health);
  });

  it('fuzz: the same grammar as subscriptions over the WebSocket gets an error or a 4400/1009 close, never a stall', async () => {
    const r = prng(0x15_0003);
    const before = tally.failures.length;
    const wsNames = [
      'deep',
      'aliased',
      'fragmentHeavy',
      'cycle',
      'hugeString',
      'directives',
      'garbage',
      'tokens',
      'notAString',
    ];
    const { health } = await whileHealthy(t.url, async () => {
      for (const [i, name] of wsNames.flatMap((n) => [n, n, n]).entries()) {
        const made = GENERATORS[name]!(r);
        const query =
          typeof made === 'string'
            ? made.replace(/^query\b|^\{/, (m) =>
                m === '{' ? `subscription { ${SUB_ROOT} { progress } ` : 'subscription',
              )
            : made.query;
        const out = await wsSubscribe(t.url, { query }, { from: CLIENT_ADDRESSES[i % CLIENT_ADDRESSES.length] });
        const code = out.errors?.[0]?.extensions?.code;
        // 4400: not a string; 1009: a message over 64 KB (SOCKET_BUDGET.messageBytes, the huge strings).
        const ok =
          out.closeCode === 4400 ||
          out.closeCode === 1009 ||
          (!!out.errors?.length &&
            !/\bat .+\.(ts|js):\d+/.test(JSON.stringify(out)) &&
            (code === undefined ? !!out.errors[0]?.message : REFUSAL_CODES.has(code)));
        tally.record(`ws fuzz ${name} #${i}`, ok, JSON.stringify(out).slice(0, 300));
      }
    });
    figures.push(`fuzz WS: ${describeHealth(health)}`);
    expect(tally.failures.slice(before)).toEqual([]);
    expectHealthy(health);
  });
});
