/** The live notice: new live viewing leads, and the title of the tour a lead is for. */
import { graphql } from '../../graphql/graphql.js';

export const LiveLeadSubscription = graphql(`
  subscription LiveLeadCreated {
    tourLeadCreated { id name surname leadType tourId viewingSessionId gate roomPath { name seconds } }
  }
`);

export const LiveLeadTourQuery = graphql(`
  query LiveLeadTour($tourID: ID!) {
    tour(tourID: $tourID) { id title }
  }
`);
