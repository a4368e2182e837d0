/** Team page: invites connection and membership mutations. */
import { graphql } from '../../graphql/graphql.js';

export const TeamQuery = graphql(`
  query Team($count: Int = 100, $cursor: String) {
    me {
      user {
        id
        username
        isAdmin
        profile { id name surname }
        company {
          id
          name
          license { planName quantity }
          invites(first: $count, after: $cursor) {
            edges {
              cursor
              node {
                id
                email
                accepted
                createdAt
                expiresAt
                user {
                  id
                  username
                  isAdmin
                  monthlyActiveTours
                  monthlyUploadedTours
                  totalViews
                  deletedTourViews
                  profile { id name surname email }
                  topFiveTours { id title views }
                }
              }
            }
            pageInfo { hasNextPage endCursor }
          }
        }
      }
    }
  }
`);

export const InviteMemberMutation = graphql(`
  mutation InviteMember($input: InviteMemberInput!) {
    inviteMember(input: $input) { id email accepted createdAt expiresAt }
  }
`);

export const RevokeMemberInviteMutation = graphql(`
  mutation RevokeMemberInvite($inviteId: ID!) {
    revokeMemberInvite(inviteId: $inviteId) { success }
  }
`);

export const MakeAdminMemberMutation = graphql(`
  mutation MakeAdminMember($userId: ID!) {
    makeAdminMember(userId: $userId) { success }
  }
`);

export const RevokeAdminMemberMutation = graphql(`
  mutation RevokeAdminMember($userId: ID!) {
    revokeAdminMember(userId: $userId) { success }
  }
`);
