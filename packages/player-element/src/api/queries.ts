/** The GraphQL documents the element sends; plain strings, no client library. */
/** The tour document lives in shared: the server recognises exactly this text (its public tour fast path). */
export { PLAYER_TOUR_QUERY } from '@roomwalk/shared/player-documents';

export const MARKER_SAVE = /* GraphQL */ `mutation MarkerSave($input: MarkerSaveInput!) {
  markerSave(input: $input) { id name description tourId scrollPosition frameIndex isFastTravel }
}`;

export const MARKER_UPDATE = /* GraphQL */ `mutation MarkerUpdate($input: MarkerUpdateInput!) {
  markerUpdate(input: $input) { id name description }
}`;

export const MARKER_DELETE = /* GraphQL */ `mutation MarkerDelete($markerId: ID!) {
  markerDelete(markerId: $markerId) { success }
}`;

export const TOUR_GENERATE_AI_MARKERS = /* GraphQL */ `mutation TourGenerateAIMarkers($tourId: ID!) {
  tourGenerateAIMarkers(tourId: $tourId) { id name description tourId scrollPosition frameIndex isFastTravel }
}`;

export const AI_MARKERS_SUBSCRIPTION = /* GraphQL */ `subscription TourGenerateAIMarkersUpdated($tourId: ID!) {
  tourGenerateAIMarkersUpdated(tourId: $tourId) { action marker { id isFastTravel frameIndex name } progressPercentage }
}`;
