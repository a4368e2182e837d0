/**
 * The player's documents against the schema, checked by the type check (`npm run typecheck`: tsc over src, after
 * `npm run codegen`), not at run time: each document the player sends is passed to `answered`, which accepts only a
 * text whose every field the schema has (graphql-types.ts); a document asking for a field the schema lacks fails
 * the type check here and where it is sent. The tour's forms with a grant or a link are built at run time from
 * PLAYER_TOUR_QUERY (same fields), so checking it checks them.
 */
import { PLAYER_TOUR_QUERY, TOUR_UNLOCK_MUTATION } from '@roomwalk/shared/player-documents';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { HOST_SESSION_QUERY } from '../live-panel/live-queries.js';
import type { DocumentResult, DocumentVariables, SchemaCheck } from './graphql-types.js';
import {
  AI_MARKERS_SUBSCRIPTION,
  MARKER_DELETE,
  MARKER_SAVE,
  MARKER_UPDATE,
  TOUR_GENERATE_AI_MARKERS,
} from './queries.js';
import { TOUR_LEAD_CREATE } from './tour-lead.js';

const answered = <const Text extends string>(text: Text & SchemaCheck<Text>): string => text;

describe('the player’s GraphQL documents', () => {
  it('ask only for fields the schema has (the type check fails otherwise)', () => {
    const documents = [
      answered(PLAYER_TOUR_QUERY),
      answered(TOUR_UNLOCK_MUTATION),
      answered(MARKER_SAVE),
      answered(MARKER_UPDATE),
      answered(MARKER_DELETE),
      answered(TOUR_GENERATE_AI_MARKERS),
      answered(AI_MARKERS_SUBSCRIPTION),
      answered(TOUR_LEAD_CREATE),
      answered(HOST_SESSION_QUERY),
    ];
    // @ts-expect-error: the schema's Tour has no `floorArea`; the check must refuse it (else this line fails tsc).
    answered(`query Bad($tourID: ID!) { tour(tourID: $tourID) { id floorArea } }`);
    // @ts-expect-error: a text that does not parse is refused too.
    answered(`query Broken { tour(`);
    expect(documents.every((d) => /^(query|mutation|subscription) \w+/.test(d))).toBe(true);
  });

  it('derive their answers and variables from the schema', () => {
    expectTypeOf<DocumentResult<typeof TOUR_LEAD_CREATE>['tourLeadCreate']['gate']>().toEqualTypeOf<{
      state: string;
      access: string | null;
      waitToken: string | null;
    } | null>();
    expectTypeOf<DocumentVariables<typeof MARKER_DELETE>>().toEqualTypeOf<{ markerId: string }>();
  });
});
