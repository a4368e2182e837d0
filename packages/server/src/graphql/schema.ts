/** Assembles the schema from one file per domain. The printed SDL is checked in at packages/shared/schema.graphql. */
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import { maskSubscriptionErrors } from './errors.js';
import './schema/accounts.js';
import './schema/account-mutations.js';
import './schema/tours.js';
import './schema/tour-access.js';
import './schema/tour-listing.js';
import './schema/lead-gate.js';
import './schema/audience-links.js';
import './schema/media.js';
import './schema/uploads.js';
import './schema/billing.js';
import './schema/live.js';
import './schema/analytics.js';
import './schema/seller-reports.js';
import './schema/personal-data.js';
import './schema/developer.js';
import './schema/nodes.js';

let cached: GraphQLSchema | undefined;
export function getSchema(): GraphQLSchema {
  cached ??= maskSubscriptionErrors(builder.toSchema());
  return cached;
}

export function printSdl(): string {
  return `${printSchema(lexicographicSortSchema(getSchema()))}\n`;
}
