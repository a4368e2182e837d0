/**
 * Query limits (tokens, depth, aliases, cost, fragment spreads) so they hold on HTTP and WebSocket alike.
 *
 * The token limit is applied while parsing (graphql-js `maxTokens`), so an oversized document is refused before any
 * tree is built. Everything else is one validation rule whose work is linear in the document: each fragment is
 * summarised once (depth below it, cost at multiplier 1, aliases) and every spread of it reuses that summary, so a
 * "fragment bomb" (each fragment spreading the next one twice) costs as much to check as it is long, not 2^levels.
 */
import {
  GraphQLError,
  Kind,
  Lexer,
  Source,
  TokenKind,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type GraphQLSchema,
  getNamedType,
  isInterfaceType,
  isObjectType,
  validate,
} from 'graphql';
import {
  ERROR_CODES,
  ERROR_TEXTS,
  REELS_MAX,
  TEAM_INVITES_PAGE_SIZE,
  TOP_TOURS_PER_USER,
  TOURS_PAGE_SIZE,
} from '@roomwalk/shared';

export const QUERY_LIMITS = {
  maxDepth: 12,
  maxAliases: 30,
  /**
   * Fields counted with their lists' sizes, for a signed-in caller (a user or an API key). The console's heaviest
   * document (Team Tours: 100 members' top five tours, about 7,300) fits; what costs more is built to
   * (bench/query-cost.ts measures both).
   */
  maxCost: 8000,
  /** The same for an anonymous caller: the player's document costs about 2,200, so two long tours fit, three do not. */
  maxAnonymousCost: 5000,
  /** Lexical tokens in one document (the console's largest operation has under 100). */
  maxTokens: 2000,
  /** `...Fragment` spreads written in one document. */
  maxFragmentSpreads: 50,
  /**
   * Fields with the same response name in one selection set. graphql-js compares each pair of them for conflicts
   * (OverlappingFieldsCanBeMerged), so its cost grows with the square of the copies (docs/results.md, Query cost).
   */
  maxSameField: 10,
} as const;
export type QueryLimits = { readonly [K in keyof typeof QUERY_LIMITS]: number };

/**
 * Lists without paging arguments that can be long: what is asked of each item costs this many times (a 10-minute
 * tour has 250 clips; the other sizes are the most the product makes or a company plausibly holds). Other lists
 * count one item. With these the player's document passes and 30 aliases of a long tour are refused (docs/results.md,
 * Query cost).
 */
const LIST_SIZES: Readonly<Record<string, number>> = {
  'Tour.clips': 250,
  'Tour.markers': 100,
  'Tour.shots': 50,
  'Tour.logs': 50,
  'Tour.reels': REELS_MAX,
  'User.topFiveTours': TOP_TOURS_PER_USER,
  'Company.members': 100,
  'Company.apiKeys': 50,
  'Query.webhookEndpoints': 50,
  'SellerReportSettings.links': 50,
  'TourRoomAnalytics.daily': 366,
  'TourRoomAnalytics.rooms': 100,
  'TourRoomAnalytics.exits': 100,
};

/**
 * Paged lists (Relay connections): the page a field answers without `first` or `last`, and the most one page holds.
 * The resolvers pass both to `resolveCursorConnection`; the cost counts a page as what `first`/`last` asks (a variable
 * read from the request's variables), at most `max`.
 */
export const PAGE_SIZES = {
  'Query.tours': { defaultSize: TOURS_PAGE_SIZE, maxSize: 100 },
  'Company.invites': { defaultSize: TEAM_INVITES_PAGE_SIZE, maxSize: 100 },
  'Query.webhookDeliveries': { defaultSize: 20, maxSize: 100 },
} as const satisfies Record<string, { defaultSize: number; maxSize: number }>;
const PAGES: Readonly<Record<string, { defaultSize: number; maxSize: number }>> = PAGE_SIZES;

function tooComplex(detail: string): GraphQLError {
  return new GraphQLError(`${ERROR_TEXTS.queryTooComplex} (${detail})`, {
    extensions: { code: ERROR_CODES.QUERY_TOO_COMPLEX },
  });
}

/** Options for graphql-js `parse`: stops the lexer at the token limit. */
export const PARSE_OPTIONS = { maxTokens: QUERY_LIMITS.maxTokens } as const;

/** graphql-js' message when `maxTokens` stops a parse (Mercurius passes it on as a syntax error). */
export function isTokenLimitError(message: string): boolean {
  return /^Syntax Error: Document contains more th(?:an|at) \d+ tokens/.test(message);
}

export function tokenLimitError(limits: QueryLimits = QUERY_LIMITS): GraphQLError {
  return tooComplex(`more than ${limits.maxTokens} tokens`);
}

/**
 * The source's lexical tokens, counted up to `max + 1` without building a tree (for paths where we cannot pass parse
 * options, the WebSocket). A lexing error ends the count: the parser reports it.
 */
export function countTokens(source: string, max: number = QUERY_LIMITS.maxTokens): number {
  const lexer = new Lexer(new Source(source));
  let n = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) {
      n += 1;
      if (n > max) return n;
    }
  } catch {
    return n;
  }
  return n;
}

/** A document built by our parser (not a JSON "AST" a client sent in place of a query string). */
export function isParsedDocument(document: DocumentNode): boolean {
  const loc = document.loc as unknown as { source?: unknown; startToken?: unknown } | undefined;
  return !!loc && loc.source instanceof Source && typeof loc.startToken === 'object';
}

interface Summary {
  /** Deepest field below this selection set (1 = a field with no selection). */
  depth: number;
  /** Cost at multiplier 1. */
  cost: number;
  aliases: number;
}
const EMPTY: Summary = { depth: 0, cost: 0, aliases: 0 };

/**
 * The request's variables, for the size of a page asked with a variable (`tours(first: $n)`): the values sent, or
 * `'unknown'` where they are not known yet (the check before graphql's own rules: a page then counts as the fewest
 * items, 0, and the check with the request's variables runs before execution) or `'most'` (subscriptions, whose
 * variables the hooks do not see: a page counts as the most it can hold).
 */
export type PageVariables = Readonly<Record<string, unknown>> | 'unknown' | 'most';

/** Depth, aliases, cost and spread count of each operation, following fragments once each. */
function queryLimitsRule(limits: QueryLimits, variables: PageVariables) {
  return (context: ValidationContext): ASTVisitor => {
    const document = context.getDocument();
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of document.definitions)
      if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    const pageItems = pageSizer(document, variables);
    // undefined: not seen; null: being summarised (a spread reaching it again is a cycle; graphql's NoFragmentCycles
    // reports it).
    const memo = new Map<string, Summary | null>();

    const schema = context.getSchema();
    /** The named type a field of `typeName` answers ('' when unknown: validation reports it). */
    const fieldType = (typeName: string, field: string): string => {
      const type = schema.getType(typeName);
      const def = type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields()[field] : undefined;
      return def ? getNamedType(def.type).name : '';
    };

    const summarise = (set: SelectionSetNode | undefined, typeName: string): Summary => {
      if (!set) return EMPTY;
      let depth = 0;
      let cost = 0;
      let aliases = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) {
          if (sel.alias) aliases += 1;
          if (sel.name.value.startsWith('__')) continue;
          const child = summarise(sel.selectionSet, fieldType(typeName, sel.name.value));
          const key = `${typeName}.${sel.name.value}`;
          const page = PAGES[key];
          const items = page ? pageItems(sel, page) : (LIST_SIZES[key] ?? 1);
          depth = Math.max(depth, 1 + child.depth);
          cost += 1 + child.cost * items;
          aliases += child.aliases;
        } else {
          const inner =
            sel.kind === Kind.INLINE_FRAGMENT
              ? summarise(sel.selectionSet, sel.typeCondition?.name.value ?? typeName)
              : fragmentSummary(sel.name.value);
          depth = Math.max(depth, inner.depth);
          cost += inner.cost;
          aliases += inner.aliases;
        }
      }
      return { depth, cost, aliases };
    };

    const fragmentSummary = (name: string): Summary => {
      const known = memo.get(name);
      if (known) return known;
      if (known === null) return EMPTY;
      memo.set(name, null);
      const fragment = fragments.get(name);
      const summary = summarise(fragment?.selectionSet, fragment?.typeCondition.name.value ?? '');
      memo.set(name, summary);
      return summary;
    };

    // How often each response name is asked in a set, fragments expanded; each named fragment's counts once.
    const fragmentCounts = new Map<string, Map<string, number> | null>();
    const addCounts = (set: SelectionSetNode | undefined, into: Map<string, number>, spread: Set<string>) => {
      if (!set) return;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) {
          const name = sel.alias?.value ?? sel.name.value;
          into.set(name, (into.get(name) ?? 0) + 1);
        } else if (sel.kind === Kind.INLINE_FRAGMENT) addCounts(sel.selectionSet, into, spread);
        else if (!spread.has(sel.name.value)) {
          // graphql-js collects each fragment name once per set, then compares what each fragment brings.
          spread.add(sel.name.value);
          for (const [name, n] of countsOfFragment(sel.name.value)) into.set(name, (into.get(name) ?? 0) + n);
        }
      }
    };
    const countsOfFragment = (name: string): Map<string, number> => {
      const known = fragmentCounts.get(name);
      if (known) return known;
      if (known === null) return new Map(); // a cycle: NoFragmentCycles reports it
      fragmentCounts.set(name, null);
      const counts = new Map<string, number>();
      addCounts(fragments.get(name)?.selectionSet, counts, new Set([name]));
      fragmentCounts.set(name, counts);
      return counts;
    };
    const fieldCounts = (set: SelectionSetNode) => {
      const counts = new Map<string, number>();
      addCounts(set, counts, new Set());
      return counts;
    };

    let spreads = 0;
    let reported = false;
    let repeatedReported = false;
    return {
      SelectionSet(node) {
        // Counted through inline fragments and named fragments too: graphql-js merges their fields into the set
        // before comparing (45 fragments each asking priceTiers 10 times made 450 copies in one set).
        if (repeatedReported) return;
        const repeated = repeatedField(fieldCounts(node), limits.maxSameField);
        if (repeated) {
          repeatedReported = true;
          context.reportError(
            tooComplex(`"${repeated}" asked more than ${limits.maxSameField} times in one selection`),
          );
        }
      },
      FragmentSpread() {
        spreads += 1;
        if (spreads > limits.maxFragmentSpreads && !reported) {
          reported = true;
          context.reportError(tooComplex(`more than ${limits.maxFragmentSpreads} fragment spreads`));
        }
      },
      OperationDefinition(node) {
        const root =
          node.operation === 'query'
            ? schema.getQueryType()
            : node.operation === 'mutation'
              ? schema.getMutationType()
              : schema.getSubscriptionType();
        const { depth, cost, aliases } = summarise(node.selectionSet, root?.name ?? '');
        if (depth > limits.maxDepth) context.reportError(tooComplex(`depth ${depth} > ${limits.maxDepth}`));
        if (aliases > limits.maxAliases)
          context.reportError(tooComplex(`aliases ${fmt(aliases)} > ${limits.maxAliases}`));
        if (cost > limits.maxCost) context.reportError(tooComplex(`cost ${fmt(cost)} > ${limits.maxCost}`));
      },
    };
  };
}

/** Items one page of a connection field holds: what `first`/`last` ask (the larger of the two), at most `maxSize`. */
function pageSizer(document: DocumentNode, variables: PageVariables) {
  // A variable's default, from any operation of the document (a fragment may be spread in any of them): the largest.
  const defaults = new Map<string, number>();
  for (const def of document.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const v of (def as OperationDefinitionNode).variableDefinitions ?? []) {
      const name = v.variable.name.value;
      if (v.defaultValue?.kind === Kind.INT)
        defaults.set(name, Math.max(defaults.get(name) ?? 0, Number(v.defaultValue.value)));
    }
  }
  return (field: FieldNode, page: { defaultSize: number; maxSize: number }): number => {
    let asked: number | null = null;
    for (const arg of field.arguments ?? []) {
      if (arg.name.value !== 'first' && arg.name.value !== 'last') continue;
      let n: number | null = null;
      if (arg.value.kind === Kind.INT) n = Number(arg.value.value);
      else if (arg.value.kind === Kind.VARIABLE) {
        const name = arg.value.name.value;
        if (variables === 'unknown') n = 0;
        else if (variables === 'most') n = page.maxSize;
        else {
          // Not sent: the default, else null (no argument: the default page). Not a number: refused by graphql.
          const sent = variables[name];
          n =
            typeof sent === 'number'
              ? sent
              : sent === undefined
                ? (defaults.get(name) ?? null)
                : sent === null
                  ? null
                  : page.maxSize;
        }
      }
      if (n !== null) asked = Math.max(asked ?? 0, n);
    }
    return Math.min(page.maxSize, Math.max(0, asked ?? page.defaultSize));
  };
}

/** The first response name asked more than `max` times, or null. */
function repeatedField(counts: Map<string, number>, max: number): string | null {
  for (const [name, n] of counts) if (n > max) return name;
  return null;
}

/**
 * Our limits alone, for running before graphql's own validation rules (some of those are quadratic in repeated
 * fields): refuse first, so a hostile document never reaches them.
 */
export function checkQueryLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: PageVariables = 'unknown',
  limits: QueryLimits = QUERY_LIMITS,
): readonly GraphQLError[] {
  return validate(schema, document, [queryLimitsRule(limits, variables)]);
}

/** The limits for a caller: an anonymous one's documents may cost less (QUERY_LIMITS.maxAnonymousCost). */
export function limitsFor(signedIn: boolean): QueryLimits {
  return signedIn ? QUERY_LIMITS : { ...QUERY_LIMITS, maxCost: QUERY_LIMITS.maxAnonymousCost };
}

const fmt = (n: number) => (Number.isFinite(n) && n < 1e12 ? String(Math.round(n)) : 'too high to count');
