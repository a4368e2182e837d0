/** Typed operations of the tours screens, from the committed SDL. */
import { graphql } from '../../graphql/graphql.js';
import { LicenseFields } from '../account/account-operations.js';

export const TourCardFields = graphql(`
  fragment TourCardFields on Tour {
    id
    title
    description
    listingLink
    thumbnailURL
    views
    progress
    createdAt
    status { status }
    failureReason
    liveViewing
    videoInfo { keptSeconds declaredSeconds }
  }
`);

/** Home: the user, licence and team tours, and the first page of the user's own tours. */
export const ToursHomeQuery = graphql(
  `
  query ToursHome($first: Int!, $after: String) {
    me {
      user {
        id
        username
        activated
        isAdmin
        profile { id name surname email }
        company {
          id
          name
          license { ...LicenseFields }
        }
      }
    }
    tours(first: $first, after: $after) {
      edges { cursor node { ...TourCardFields } }
      pageInfo { hasNextPage endCursor }
    }
  }
`,
  [LicenseFields, TourCardFields],
);

/** Team Tours: each invited member's top five tours (company admins). */
export const TeamToursQuery = graphql(
  `
  query TeamTours {
    me {
      user {
        id
        company {
          id
          invites(first: 100) {
            edges {
              node {
                id
                accepted
                email
                user {
                  id
                  username
                  profile { id name surname }
                  topFiveTours { ...TourCardFields }
                }
              }
            }
          }
        }
      }
    }
  }
`,
  [TourCardFields],
);

/** A further page of the user's tours ('Load more tours...'). */
export const ToursPageQuery = graphql(
  `
  query ToursPage($first: Int!, $after: String) {
    tours(first: $first, after: $after) {
      edges { cursor node { ...TourCardFields } }
      pageInfo { hasNextPage endCursor }
    }
  }
`,
  [TourCardFields],
);

export const TourProgressSubscription = graphql(`
  subscription TourProgress($tourId: ID!) {
    tourProgressUpdated(tourId: $tourId) { progress status text thumbnailURL }
  }
`);

export const TourSaveMutation = graphql(`
  mutation TourSave($input: TourSaveInput!) {
    tourSave(input: $input) { id title description videoURL listingLink blurFaces liveViewing status { status } }
  }
`);

/** The tour's switches (privacy, live viewing) and the clips in which faces were blurred (the Tour Info dialog). */
export const TourPrivacyQuery = graphql(`
  query TourPrivacy($id: ID!) {
    tour(tourID: $id) { id blurFaces blurredClips liveViewing access }
  }
`);

/** Who sees the tour: public link, password or company only (the Tour Info dialog). */
export const TourAccessSetMutation = graphql(`
  mutation TourAccessSet($input: TourAccessSetInput!) {
    tourAccessSet(input: $input) { id access }
  }
`);

/** Whether the shared links carry live viewing (Sharing Options). */
export const TourShareSettingsQuery = graphql(`
  query TourShareSettings($id: ID!) {
    tour(tourID: $id) { id liveViewing access }
  }
`);

export const TourUpdateThumbnailMutation = graphql(`
  mutation TourUpdateThumbnail($input: TourUpdateThumbnailInput!) {
    tourUpdateThumbnailURL(input: $input) { id thumbnailURL }
  }
`);

export const TourDeleteMutation = graphql(`
  mutation TourDelete($tourId: ID!) {
    tourDelete(tourId: $tourId) { success }
  }
`);

export const ReelFields = graphql(`
  fragment ReelFields on Reel {
    id
    key
    progress
    highURI
    thumbnailURL
    status { status }
  }
`);

export const TourReelsQuery = graphql(
  `
  query TourReels($tourID: ID!) {
    tour(tourID: $tourID) { id title reels { ...ReelFields } }
  }
`,
  [ReelFields],
);

export const TourGenerateReelMutation = graphql(`
  mutation TourGenerateReel($tourId: ID!) {
    tourGenerateReel(tourId: $tourId) { id }
  }
`);

export const ReelProgressSubscription = graphql(`
  subscription ReelProgress($reelId: ID!) {
    reelProgressUpdated(reelId: $reelId) { progress status text thumbnailURL }
  }
`);
