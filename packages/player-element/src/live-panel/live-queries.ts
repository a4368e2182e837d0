/** The live panel's GraphQL documents (its lead goes through api/tour-lead.ts, as the lead gate's does). */
export const HOST_SESSION_QUERY = /* GraphQL */ `query LiveHostSession($tourID: ID!, $session: ID) {
  tour(tourID: $tourID) { id viewingSessionRequest(session: $session) { signalingToken rtcToken appId viewingSessionUserId expireTime } }
}`;
