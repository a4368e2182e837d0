/**
 * API key scope on every path: walks the schema as introspection shows it, from the root fields a key may use, through
 * every field it may select and every type an interface can answer (`node(id)` with `... on Type`). Every field on
 * that walk is either in docs/api.md's allow-list (and reached) or refused by the server's check with its name.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  buildClientSchema,
  getNamedType,
  introspectionFromSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  parse,
  specifiedRules,
  validate,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { API_KEY_FIELDS, fieldOutsideApiKeyScope } from '../src/graphql/api-key-scope.js';
import { getSchema } from '../src/graphql/schema.js';

/** The `<!-- api-key-fields -->` table of docs/api.md as Type → fields. */
function documentedFields(): Map<string, Set<string>> {
  const text = fs.readFileSync(fileURLToPath(new URL('../../../docs/api.md', import.meta.url)), 'utf8');
  const table = /<!-- api-key-fields -->([\s\S]*?)<!-- \/api-key-fields -->/.exec(text)?.[1] ?? '';
  const out = new Map<string, Set<string>>();
  for (const m of table.matchAll(/^\| `(\w+)` \| ([^|]+) \|$/gm)) {
    out.set(
      m[1]!,
      new Set(
        m[2]!
          .replace(/\(.*\)/, '')
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean),
      ),
    );
  }
  return out;
}

/** A literal the type accepts (required arguments and input fields only), so each probe document is valid. */
function literal(type: GraphQLInputType): string {
  if (isNonNullType(type)) return literal(type.ofType);
  if (isListType(type)) return `[${literal(type.ofType)}]`;
  if (isEnumType(type)) return type.getValues()[0]!.name;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type));
    return `{ ${fields.map((f) => `${f.name}: ${literal(f.type)}`).join(', ')} }`;
  }
  if (type.name === 'Int' || type.name === 'Float') return '1';
  if (type.name === 'Boolean') return 'true';
  return '"x"';
}

function selection(field: GraphQLField<unknown, unknown>): string {
  const args = field.args.filter((a) => isNonNullType(a.type));
  return args.length ? `${field.name}(${args.map((a) => `${a.name}: ${literal(a.type)}`).join(', ')})` : field.name;
}

describe('API key scope, walked over the whole schema', () => {
  const schema = buildClientSchema(introspectionFromSchema(getSchema()));
  const documented = documentedFields();

  it('docs/api.md lists exactly the fields the server allows', () => {
    expect(documented.size).toBeGreaterThan(10);
    const fromCode = new Map(Object.entries(API_KEY_FIELDS).map(([t, f]) => [t, new Set(f)]));
    expect(documented).toEqual(fromCode);
  });

  it('every field a key can reach is documented, or refused by name before it runs', () => {
    const reached = new Map<string, Set<string>>();
    const refused: string[] = [];
    const seen = new Set<string>();
    const queue: Array<{ type: GraphQLNamedType; wrap: (inner: string) => string }> = [
      { type: schema.getQueryType()!, wrap: (inner) => `query { ${inner} }` },
      { type: schema.getMutationType()!, wrap: (inner) => `mutation { ${inner} }` },
      { type: schema.getSubscriptionType()!, wrap: (inner) => `subscription { ${inner} }` },
    ];
    while (queue.length > 0) {
      const { type, wrap } = queue.shift()!;
      if (seen.has(type.name) || !(isObjectType(type) || isInterfaceType(type))) continue;
      seen.add(type.name);
      for (const field of Object.values(type.getFields())) {
        if (field.name.startsWith('__')) continue;
        const named = getNamedType(field.type);
        const sel = selection(field);
        const doc = wrap(isLeafType(named) ? sel : `${sel} { __typename }`);
        expect(validate(schema, parse(doc), specifiedRules), doc).toEqual([]);
        const verdict = fieldOutsideApiKeyScope(getSchema(), parse(doc));
        if (documented.get(type.name)?.has(field.name)) {
          expect(verdict, doc).toBeNull();
          if (!reached.has(type.name)) reached.set(type.name, new Set());
          reached.get(type.name)!.add(field.name);
          if (isLeafType(named)) continue;
          queue.push({ type: named, wrap: (inner) => wrap(`${sel} { ${inner} }`) });
          if (isInterfaceType(named) || isUnionType(named)) {
            for (const possible of schema.getPossibleTypes(named))
              queue.push({ type: possible, wrap: (inner) => wrap(`${sel} { ... on ${possible.name} { ${inner} } }`) });
          }
        } else {
          expect(verdict, doc).toBe(`${type.name}.${field.name}`);
          refused.push(verdict!);
        }
      }
    }
    // Every documented field is reachable (the table names no dead entries), and the leaks of the review are refused.
    expect(reached).toEqual(documented);
    expect(refused).toEqual(
      expect.arrayContaining([
        'User.company',
        'Company.members',
        'Company.invites',
        'Company.license',
        'Tour.viewingSessionRequest',
        'TourLead.email',
        'Query.me',
        'Subscription.tourLeadCreated',
      ]),
    );
  });

  it('refuses a field behind a fragment spread as on the path itself', () => {
    const doc = parse(
      'query { tours(first: 1) { edges { node { ...T } } } } fragment T on Tour { owner { ...U } } fragment U on User { company { name } }',
    );
    expect(validate(schema, doc, specifiedRules)).toEqual([]);
    expect(fieldOutsideApiKeyScope(getSchema(), doc)).toBe('User.company');
  });
});
