/** Assembles the schema from one file per domain. The printed SDL is checked in at packages/shared/schema.graphql. */
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import { toClientError } from './errors.js';
import './schema/accounts.js';
import './schema/account-mutations.js';
import './schema/tours.js';
import './schema/media.js';
import './schema/billing.js';
import './schema/live.js';
import './schema/nodes.js';

let cached: GraphQLSchema | undefined;
export function getSchema(): GraphQLSchema {
  cached ??= maskSubscriptionErrors(builder.toSchema());
  return cached;
}

/** Errors thrown while starting a subscription bypass Mercurius' formatter on WebSocket; mask them the same way. */
function maskSubscriptionErrors(schema: GraphQLSchema): GraphQLSchema {
  const fields = schema.getSubscriptionType()?.getFields() ?? {};
  for (const field of Object.values(fields)) {
    const subscribe = field.subscribe;
    if (!subscribe) continue;
    field.subscribe = async (...args) => {
      try {
        return await subscribe(...args);
      } catch (err) {
        throw toClientError(err, (e) => (args[2] as { services?: { log?: { error: (e: unknown) => void } } })?.services?.log?.error(e));
      }
    };
  }
  return schema;
}

export function printSdl(): string {
  return `${printSchema(lexicographicSortSchema(getSchema()))}\n`;
}
