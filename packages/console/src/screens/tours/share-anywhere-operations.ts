/** Share anywhere (issue 41): Tour Info's listing choice. */
import { graphql } from '../../graphql/graphql.js';

export const TourListingQuery = graphql(`
  query TourListing($id: ID!) {
    tour(tourID: $id) { id listed access }
  }
`);

export const TourListedSetMutation = graphql(`
  mutation TourListedSet($input: TourListedSetInput!) {
    tourListedSet(input: $input) { id listed }
  }
`);
