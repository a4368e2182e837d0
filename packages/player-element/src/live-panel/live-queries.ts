/** The live panel's GraphQL documents (the server's stub-parity test reads TOUR_LEAD_CREATE from here). */
export const TOUR_LEAD_CREATE = /* GraphQL */ `mutation TourLeadCreate($input: TourLeadCreateInput!) {
  tourLeadCreate(input: $input) {
    tourLead { id name surname email contactNumber leadType tourId }
    viewingSessionRequest { signalingToken rtcToken appId viewingSessionUserId expireTime }
  }
}`;

export const HOST_SESSION_QUERY = /* GraphQL */ `query LiveHostSession($tourID: ID!, $session: ID) {
  tour(tourID: $tourID) { id viewingSessionRequest(session: $session) { signalingToken rtcToken appId viewingSessionUserId expireTime } }
}`;
