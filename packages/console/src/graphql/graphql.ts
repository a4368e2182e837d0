/**
 * gql.tada bound to the committed SDL (packages/shared/schema.graphql); graphql-env.d.ts is generated at build time.
 */
import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './graphql-env.js';

export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: { DateTime: string; Upload: File | Blob | null; ID: string };
}>();

export type { FragmentOf, ResultOf } from 'gql.tada';
export { readFragment } from 'gql.tada';
