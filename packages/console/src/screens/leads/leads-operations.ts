/** The Leads screen: the company's latest leads, those waiting at a lead gate, and the agent's approval. */
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

/** New leads as they arrive (the list refreshes: a visitor may be waiting). */
export const LeadArrivedSubscription = graphql(`
  subscription LeadArrived {
    tourLeadCreated { id }
  }
`);
