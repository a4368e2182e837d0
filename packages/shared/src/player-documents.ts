/**
 * The player's tour document, the one GraphQL text both sides hold to: `<tour-player>` sends exactly this, and the
 * server's public tour cache recognises exactly this text to answer it without GraphQL execution
 * (server services/public-tour-answer.ts serialises the answer in this field order).
 */
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
