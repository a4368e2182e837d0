/**
 * The player's GraphQL documents typed from the schema at type-check time, and nothing at run time: gql.tada (as the
 * console uses it) reads `graphql-env.d.ts`, which `npm run codegen` writes from packages/shared/schema.graphql (the
 * typecheck and the build run it first); here it is only declared, never imported as a value, so the bundle sends
 * the documents as the plain strings they are. A document written as a string literal (`const X = `query …``) keeps
 * its text in its type, from which gql.tada derives its result and variables; a field the schema lacks fails the type
 * check where the document is sent (`graphqlRequest`) and in `graphql-types.unit.test.ts`, which lists every document
 * the player sends.
 */
import type { initGraphQLTada, ResultOf, VariablesOf } from 'gql.tada';
import type { introspection } from './graphql-env.js';

declare const graphql: ReturnType<
  typeof initGraphQLTada<{ introspection: introspection; scalars: { DateTime: string; ID: string } }>
>;

/** The text parsed against the schema (the second overload of gql.tada's `graphql()`). */
type Parsed<Text extends string> =
  // @ts-expect-error: the first overload looks the text up in gql.tada's document cache, which the player does not keep.
  ReturnType<typeof graphql<Text, []>>;

/** What a document answers, from the schema. */
export type DocumentResult<Text extends string> = ResultOf<Parsed<Text>>;
/** The variables a document takes, from the schema. */
export type DocumentVariables<Text extends string> = VariablesOf<Parsed<Text>>;

/** Whether gql.tada typed some part of a result `unknown`: a field the schema lacks, or a text that does not parse. */
type HasUnknown<T> = unknown extends T
  ? true
  : T extends readonly (infer Item)[]
    ? HasUnknown<Item>
    : T extends object
      ? true extends { [K in keyof T]-?: HasUnknown<T[K]> }[keyof T]
        ? true
        : false
      : false;

/** `unknown` for a document the schema answers in full; a type no string is otherwise, naming the document. */
export type SchemaCheck<Text extends string> =
  HasUnknown<DocumentResult<Text>> extends true ? { 'asks for a field the schema lacks': Text } : unknown;
