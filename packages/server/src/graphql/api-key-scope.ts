/**
 * What an API key may read and do: an allow-list of fields per type, checked on every path of every operation a key
 * sends (root fields, nested fields, fragments, `node(id)` with `... on Type`). A key works on the company's tours,
 * markers, uploads and media; never on accounts, billing, the team, invites, leads, live viewing, API keys or
 * webhooks (those stay with a signed-in admin in the console). A type or field added to the schema is refused to
 * keys until it is listed here: the safe default. docs/api.md lists the same fields (test/api-key-scope.test.ts
 * walks the schema and compares).
 */
import {
  Kind,
  TypeInfo,
  getNamedType,
  visit,
  visitWithTypeInfo,
  BREAK,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { ERROR_CODES } from '@roomwalk/shared';
import { AppError } from '../core/errors.js';

export const API_KEY_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Query: ['node', 'tour', 'tours', 'tourAnalytics', 'uploadMultipartParts'],
  Mutation: [
    'fileGetPreSignedUrl',
    'fileSubmitPreSignedUpload',
    'uploadMultipartStart',
    'uploadMultipartSignPart',
    'uploadMultipartComplete',
    'uploadMultipartAbort',
    'tourSave',
    'tourDelete',
    'tourReactivate',
    'tourUpdateThumbnailURL',
    'markerSave',
    'markerUpdate',
    'markerDelete',
    'tourGenerateAIMarkers',
    'tourGenerateReel',
    'generateTourShots',
    'regenerateShot',
    'generateStagedShot',
  ],
  Node: ['id'],
  // Not viewingSessionRequest: its host tokens join the live-viewing socket as the agent.
  Tour: [
    'agentProfile',
    'analytics',
    'blurFaces',
    'blurredClips',
    'clips',
    'createdAt',
    'deactivatedViews',
    'description',
    'failureReason',
    'id',
    'listingLink',
    'liveViewing',
    'logs',
    'markers',
    'owner',
    'progress',
    'reels',
    'shots',
    'shotsGenerating',
    'stagingAvailable',
    'status',
    'thumbnailURL',
    'title',
    'tourAccentColor',
    'tourIntroLogoURL',
    'videoInfo',
    'videoURL',
    'views',
  ],
  // A tour's owner by name only: not their company (its members, invites, licence), role or profile.
  User: ['id', 'username'],
  AgentProfile: ['contactNumber', 'email', 'fullname', 'profileImageURL'],
  TourAnalytics: ['averageRoomsReached', 'averageSecondsSpent', 'totalSecondsSpent', 'uniqueVisitors', 'visits'],
  Clip: ['duration', 'frameCount', 'highURI', 'id', 'index', 'lowURI'],
  TourLog: ['error', 'status'],
  Marker: ['description', 'frameIndex', 'id', 'isFastTravel', 'name', 'scrollPosition', 'tourId'],
  Reel: ['highURI', 'id', 'key', 'progress', 'provider', 'seed', 'status', 'thumbnailURL'],
  ReelStatus: ['status'],
  Shot: [
    'createdAt',
    'enhancedImageURI',
    'errorMessage',
    'frameScore',
    'id',
    'originalImageURI',
    'roomType',
    'shotStatus',
    'shotType',
    'sourceClipIndex',
    'sourceFramePosition',
    'stagedImageURI',
  ],
  TourStatus: ['status'],
  VideoInfo: ['fullSize', 'height', 'mediumSize', 'smallSize', 'width'],
  TourConnection: ['edges', 'pageInfo'],
  TourEdge: ['cursor', 'node'],
  PageInfo: ['endCursor', 'hasNextPage', 'hasPreviousPage', 'startCursor'],
  TourRoomAnalytics: [
    'averageSeconds',
    'completionRate',
    'daily',
    'devices',
    'exits',
    'fastTravels',
    'from',
    'rooms',
    'to',
    'uniqueVisitors',
    'visits',
  ],
  TourAnalyticsDay: ['date', 'uniqueVisitors', 'visits'],
  TourAnalyticsRoom: ['name', 'seconds', 'visits'],
  TourAnalyticsCount: ['name', 'visits'],
  UploadedPart: ['etag', 'partNumber', 'size'],
  PreSignedUpload: ['error', 'headers', 'key', 'message', 'uploadURL'],
  Header: ['key', 'value'],
  SubmittedUpload: ['bucketURL', 'tourId'],
  MultipartUpload: ['error', 'key', 'message', 'partCount', 'partSize', 'resumed', 'uploadId'],
  UploadPartUrl: ['headers', 'url'],
  CompletedUpload: ['key', 'size'],
  Success: ['success'],
};

const allowed = new Map(Object.entries(API_KEY_FIELDS).map(([type, fields]) => [type, new Set(fields)]));

/** Whether an API key may select `field` on `type` (`__typename` everywhere; introspection nowhere). */
function apiKeyMayRead(type: string, field: string): boolean {
  return field === '__typename' || (allowed.get(type)?.has(field) ?? false);
}

const verdicts = new WeakMap<DocumentNode, string | null>();

/**
 * The first `Type.field` of the document an API key may not select, or null. Every field is checked against the
 * type it is selected on, in operations and fragments alike, so no path (nested, spread, `node(id)`) goes around it.
 * Cached per parsed document (Mercurius reuses them).
 */
export function fieldOutsideApiKeyScope(schema: GraphQLSchema, document: DocumentNode): string | null {
  const known = verdicts.get(document);
  if (known !== undefined) return known;
  const typeInfo = new TypeInfo(schema);
  let refused: string | null = null;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      [Kind.FIELD](node) {
        const parent = typeInfo.getParentType();
        const type = parent ? getNamedType(parent).name : '?';
        if (!apiKeyMayRead(type, node.name.value)) {
          refused = `${type}.${node.name.value}`;
          return BREAK;
        }
        return undefined;
      },
    }),
  );
  verdicts.set(document, refused);
  return refused;
}

export function apiKeyScopeRefusal(field: string): AppError {
  return new AppError(
    ERROR_CODES.FORBIDDEN,
    `API keys cannot use ${field}. Sign in to the console as a company admin for accounts, billing, the team, live viewing, API keys and webhooks.`,
  );
}
