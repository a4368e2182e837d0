/** Typed operations of the Sharing dialog's audience links (docs/access-and-privacy.md), from the committed SDL. */
import { graphql } from '../../graphql/graphql.js';

/** The tour's links (revoked ones too) and its rooms, for the list and the form's hidden-room choice. */
export const AudienceLinksQuery = graphql(`
  query AudienceLinks($tourId: ID!) {
    audienceLinks(tourId: $tourId) {
      id label url status expiresAt hiddenMarkerIds unbranded visits createdAt
      leadGate { mode markerId seconds approval }
    }
    tour(tourID: $tourId) { id markers { id name frameIndex } }
  }
`);

export const AudienceLinkCreateMutation = graphql(`
  mutation AudienceLinkCreate($input: AudienceLinkCreateInput!) {
    audienceLinkCreate(input: $input) { id label url status }
  }
`);

export const AudienceLinkRevokeMutation = graphql(`
  mutation AudienceLinkRevoke($id: ID!) {
    audienceLinkRevoke(id: $id) { id status revokedAt }
  }
`);
