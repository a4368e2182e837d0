/**
 * Shapes of the public tour query (see docs/embedding in the package README), derived from the schema at type-check
 * time (graphql-types.ts): the answer to the document the player sends, never a copy of it.
 */
import type { PLAYER_TOUR_QUERY } from '@roomwalk/shared/player-documents';
import type { DocumentResult } from './graphql-types.js';
import type { AI_MARKERS_SUBSCRIPTION } from './queries.js';

/**
 * A tour as the player gets it. Its `tourAccentColor` is the company's accent colour (#rrggbb) when its plan has
 * Custom Company Branding; its `leadGate` (null: none) the form before a room or after some seconds
 * (controllers/lead-gate-controller.ts): `roomName` the room the form comes before (its clips are not given until
 * the visitor is through), `seconds` of watching after which it comes, `approval` (the visitor waits for the agent
 * after the form), `open` (this visitor is through).
 */
export type PlayerTour = NonNullable<DocumentResult<typeof PLAYER_TOUR_QUERY>['tour']>;
export type Clip = PlayerTour['clips'][number];
type TourMarker = PlayerTour['markers'][number];
/**
 * A room marker: as the tour answers it, or as an AI marker's event gives it while the markers are made (only its id,
 * name, frame and fast travel; AIMarkerEvent).
 */
export type Marker = Pick<TourMarker, 'id' | 'name' | 'frameIndex'> & Partial<TourMarker>;

export type AIMarkerEvent = DocumentResult<typeof AI_MARKERS_SUBSCRIPTION>['tourGenerateAIMarkersUpdated'];
