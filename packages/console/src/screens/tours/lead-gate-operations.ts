/** The lead gate in Tour Info: the tour's rooms and its gate, and setting it. */
import { graphql } from '../../graphql/graphql.js';

export const TourLeadGateQuery = graphql(`
  query TourLeadGate($id: ID!) {
    tour(tourID: $id) {
      id
      leadGateSettings { mode markerId seconds approval }
      markers { id name frameIndex }
    }
  }
`);

export const TourLeadGateSetMutation = graphql(`
  mutation TourLeadGateSet($input: TourLeadGateSetInput!) {
    tourLeadGateSet(input: $input) { id leadGateSettings { mode markerId seconds approval } }
  }
`);
