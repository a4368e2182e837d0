/**
 * The Leads screen: the latest leads the agent may see, those waiting at a lead gate, the agent's approval and taking a
 * pass back.
 */
import { graphql } from '../../graphql/graphql.js';

export const LeadFields = graphql(`
  fragment LeadFields on TourLead {
    id name surname email contactNumber leadType tourId gate stoppedAt createdAt tourTitle
    roomPath { name seconds }
  }
`);

export const LeadsQuery = graphql(
  `
  query Leads {
    waiting: tourLeads(waiting: true) { ...LeadFields }
    all: tourLeads { ...LeadFields }
  }
`,
  [LeadFields],
);

export const LeadApproveMutation = graphql(`
  mutation LeadApprove($id: ID!) {
    tourLeadApprove(id: $id) { id gate }
  }
`);

/** Takes a lead's pass through the gate back: their page stops at the gate from its next request on. */
export const LeadRevokePassMutation = graphql(`
  mutation LeadRevokePass($id: ID!) {
    tourLeadRevokePass(id: $id) { id gate }
  }
`);

/** New leads as they arrive (the list refreshes: a visitor may be waiting). */
export const LeadArrivedSubscription = graphql(`
  subscription LeadArrived {
    tourLeadCreated { id }
  }
`);
