/** The GraphQL documents the element sends; plain strings, no client library. */
export const PLAYER_TOUR_QUERY = /* GraphQL */ `query PlayerTour($tourID: ID!) {
  tour(tourID: $tourID) {
    id title description thumbnailURL tourIntroLogoURL tourAccentColor listingLink views
    status { status }
    videoInfo { width height fullSize mediumSize smallSize }
    clips { id index frameCount duration highURI lowURI }
    markers { id name description tourId scrollPosition frameIndex isFastTravel }
    agentProfile { fullname contactNumber email profileImageURL }
  }
}`;

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
