/** The Pothos schema builder and the typed request context every resolver receives. */
import SchemaBuilder from '@pothos/core';
import type { FastifyBaseLogger } from 'fastify';
import RelayPlugin from '@pothos/plugin-relay';
import type { Services } from '../services/services.js';
import type { AuthInfo, FileUploadValue } from '../core/auth.js';
import { encodeId, parseGlobalId, type NodeTypeName } from '../core/ids.js';
import { AppError } from '../core/errors.js';
import { ERROR_CODES } from '@roomwalk/shared';

export type { AuthInfo, FileUploadValue } from '../core/auth.js';
export { decodeId, encodeId, type NodeTypeName } from '../core/ids.js';

export interface Context {
  services: Services;
  auth: AuthInfo | null;
  ip: string;
  /** Origin header of the request (for links in mails). */
  origin: string | undefined;
  /**
   * The capabilities the request carried in its headers (CAPABILITY_HEADERS: a player's grant and passes, an audience
   * link's token), for the arguments left out of the document (`tour(access:, link:)`).
   */
  capabilities?: { access?: string | undefined; link?: string | undefined };
  /** The request's logger (carries its request id): where masked errors are logged (graphql/errors.ts). */
  log?: FastifyBaseLogger;
}

/**
 * Loaders for `node(id)` of object types that are not Pothos node refs (registered in schema/nodes.ts). A loader
 * answers the object for whoever may read it and null for anyone else, as for a missing id (no existence leak).
 */
type NodeLoader = (id: string, ctx: Context) => Promise<object | null>;
const nodeLoaders = new Map<string, NodeLoader>();
export function registerNodeLoader(typename: NodeTypeName, load: NodeLoader): void {
  nodeLoaders.set(typename, load);
}

export const builder = new SchemaBuilder<{
  Context: Context;
  Scalars: {
    ID: { Input: string; Output: string };
    DateTime: { Input: Date; Output: Date | string };
    Upload: { Input: Promise<FileUploadValue>; Output: never };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [RelayPlugin],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodeQueryOptions: {
      nullable: true,
      // Tour and User load through their node refs; the other id-carrying types through nodeLoaders. The answer
      // carries its __typename, which the Node interface resolves the type from.
      resolve: async (_root, args, ctx, _info, resolveNode) => {
        const load = nodeLoaders.get(args.id.typename);
        if (!load) return resolveNode(args.id);
        const found = await load(args.id.id, ctx);
        return found ? Object.assign(found, { __typename: args.id.typename }) : null;
      },
    },
    nodesQueryOptions: false,
    encodeGlobalID: (typename, id) => encodeId(typename as NodeTypeName, String(id)),
    decodeGlobalID: (globalID) => {
      const parsed = parseGlobalId(globalID);
      if (!parsed) throw new AppError(ERROR_CODES.NOT_FOUND, 'Not found.');
      return { typename: parsed.typename, id: parsed.id };
    },
  },
});

builder.scalarType('DateTime', {
  description: 'An ISO-8601 date and time.',
  serialize: (v) => (v instanceof Date ? v.toISOString() : String(v)),
  parseValue: (v) => {
    const d = new Date(String(v));
    if (Number.isNaN(d.getTime())) throw new AppError(ERROR_CODES.BAD_USER_INPUT, 'Not a valid date.');
    return d;
  },
});

builder.scalarType('Upload', {
  description: 'A file sent with the GraphQL multipart request.',
  serialize: () => {
    throw new Error('Upload is input only');
  },
  parseValue: (v) => v as Promise<FileUploadValue>,
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});

/** `{ success }` answers of mutations that change state without returning an object. */
export const SuccessRef = builder.objectRef<{ success: boolean }>('Success').implement({
  fields: (t) => ({ success: t.exposeBoolean('success') }),
});
