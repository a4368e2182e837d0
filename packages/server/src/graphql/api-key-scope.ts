/**
 * What an API key may do (issue 20): an allow-list of root fields, checked on every operation an API key sends. A key
 * works on the company's tours, markers, uploads and media; never on accounts, billing, the team, API keys or
 * webhooks (those stay with a signed-in admin in the console). A field added to the schema is refused to keys until
 * it is added here: the safe default.
 */
import { Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import { ERROR_CODES } from '@roomwalk/shared';
import { AppError } from '../core/errors.js';

const API_KEY_OPERATIONS: Readonly<Record<'query' | 'mutation' | 'subscription', readonly string[]>> = {
  query: ['node', 'tour', 'tours', 'tourAnalytics', 'uploadMultipartParts', '__typename'],
  mutation: [
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
  subscription: [],
};

/** The first root field an API key may not use in any operation of the document, or null. */
export function fieldOutsideApiKeyScope(document: DocumentNode): string | null {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  for (const op of document.definitions) {
    if (op.kind !== Kind.OPERATION_DEFINITION) continue;
    const allowed = new Set(API_KEY_OPERATIONS[op.operation]);
    const seen = new Set<string>();
    const walk = (set: SelectionSetNode): string | null => {
      for (const s of set.selections) {
        if (s.kind === Kind.FIELD) {
          if (!allowed.has(s.name.value)) return s.name.value;
        } else if (s.kind === Kind.INLINE_FRAGMENT) {
          const r = walk(s.selectionSet);
          if (r) return r;
        } else if (!seen.has(s.name.value)) {
          seen.add(s.name.value);
          const f = fragments.get(s.name.value);
          const r = f ? walk(f.selectionSet) : null;
          if (r) return r;
        }
      }
      return null;
    };
    const refused = walk(op.selectionSet);
    if (refused) return refused;
  }
  return null;
}

export function apiKeyScopeRefusal(field: string): AppError {
  return new AppError(ERROR_CODES.FORBIDDEN, `API keys cannot use ${field}. Sign in to the console as a company admin for accounts, billing, the team, API keys and webhooks.`);
}
