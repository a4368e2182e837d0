/** The live notice: new live viewing leads and visitors waiting at a lead gate, and the tour (title, gate room) a lead is for. */
import { graphql } from '../../graphql/graphql.js';

export const LiveLeadSubscription = graphql(`
  subscription LiveLeadCreated {
    tourLeadCreated { id name surname leadType tourId viewingSessionId gate stoppedAt roomPath { name seconds } }
  }
`);

export const LiveLeadTourQuery = graphql(`
  query LiveLeadTour($tourID: ID!) {
    tour(tourID: $tourID) { id title leadGate { roomName } }
  }
`);
