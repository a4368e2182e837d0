/**
 * The one lead submission: the live panel's form (a LIVE_VIEWING lead, answered with its viewing session) and the lead
 * gate's (a CONTACT lead with the frame the visitor stopped at, answered with the gate's state) send this document
 * with this input: the visit so far flushed first (the lead shows the rooms its visitor saw), this session's grant and
 * pass, empty optional fields as null. Each form keeps its own checks and words for a refusal.
 */
import { grantFor } from './access-grant.js';
import { graphqlRequest } from './graphql.js';
import type { DocumentResult } from './graphql-types.js';
import { flushVisit } from './visit-flush.js';

/** The server's stub-parity test (packages/server/test/player-stub-parity.test.ts) sends this text to both. */
export const TOUR_LEAD_CREATE = /* GraphQL */ `mutation TourLeadCreate($input: TourLeadCreateInput!) {
  tourLeadCreate(input: $input) {
    tourLead { id name surname email contactNumber leadType tourId }
    viewingSessionRequest { signalingToken rtcToken appId viewingSessionUserId expireTime }
    gate { state access waitToken }
  }
}`;

/** What the visitor typed (and the human check's token). */
interface LeadDetails {
  name: string;
  surname?: string | null | undefined;
  email: string;
  contactNumber?: string | null | undefined;
  turnstileToken: string;
}

/** Why the lead is sent: to join a live viewing, or at the tour's lead gate (where, and through which link). */
type LeadPurpose =
  | { leadType: 'LIVE_VIEWING' }
  | {
      leadType: 'CONTACT';
      gateFrame: number;
      /** The audience link watched through ('' for none): its own gate applies, and gateFrame counts its frames. */
      link: string;
    };

/** Sends the lead; throws what graphqlRequest throws (GraphQLRequestError, with the fields' problems in extensions). */
export async function createTourLead(
  host: EventTarget,
  api: string,
  tourId: string,
  details: LeadDetails,
  purpose: LeadPurpose,
): Promise<DocumentResult<typeof TOUR_LEAD_CREATE>['tourLeadCreate']> {
  const visit = await flushVisit(host);
  const data = await graphqlRequest(api, TOUR_LEAD_CREATE, {
    input: {
      name: details.name,
      surname: details.surname || null,
      email: details.email,
      contactNumber: details.contactNumber || null,
      turnstileToken: details.turnstileToken,
      leadType: purpose.leadType,
      tourId,
      visitorId: visit.visitorId ?? null,
      access: grantFor(tourId) ?? null,
      ...(purpose.leadType === 'CONTACT'
        ? { gateFrame: purpose.gateFrame, ...(purpose.link ? { link: purpose.link } : {}) }
        : {}),
    },
  });
  return data.tourLeadCreate;
}
