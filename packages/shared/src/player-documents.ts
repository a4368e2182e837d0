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
    leadGate { roomName seconds approval open }
  }
}`;

/**
 * The same document with an access grant (a password tour after its password): a different text, so the
 * public cache never recognises it and every such answer is computed for its caller.
 */
export const PLAYER_TOUR_ACCESS_QUERY = PLAYER_TOUR_QUERY.replace(
  'query PlayerTour($tourID: ID!)',
  'query PlayerTourWithAccess($tourID: ID!, $access: String)',
).replace('tour(tourID: $tourID)', 'tour(tourID: $tourID, access: $access)');

/** The password screen's call: answers an access grant for this browser session. */
export const TOUR_UNLOCK_MUTATION = /* GraphQL */ `mutation TourUnlock($tourID: ID!, $password: String!, $turnstileToken: String) {
  tourUnlock(tourID: $tourID, password: $password, turnstileToken: $turnstileToken) { access expiresAt }
}`;

/**
 * The document through an audience link (`link`, with the access grant of a password tour when it has one): the
 * link's own view of the tour (hidden rooms taken out, its frames re-numbered), computed for each caller and kept by no
 * shared cache; an expired or revoked link is refused with the company's message.
 */
export const PLAYER_TOUR_LINK_QUERY = PLAYER_TOUR_QUERY.replace(
  'query PlayerTour($tourID: ID!)',
  'query PlayerTourWithLink($tourID: ID!, $access: String, $link: String)',
).replace('tour(tourID: $tourID)', 'tour(tourID: $tourID, access: $access, link: $link)');

/**
 * The request headers the player sends its capabilities in: the access grant and gate passes (space-separated) and the
 * audience link's token. Never the URL (a GET's URL is in every access log, proxy and browser history); the server
 * reads them when the document's `access` and `link` variables are absent.
 */
export const CAPABILITY_HEADERS = { access: 'x-roomwalk-access', link: 'x-roomwalk-link' } as const;
