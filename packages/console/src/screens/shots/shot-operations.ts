/** Professional Photos: the tour's shots and the generate, re-enhance and stage mutations. */
import { graphql } from '../../graphql/graphql.js';

export const ShotFields = graphql(`
  fragment ShotFields on Shot {
    id
    shotType
    shotStatus
    roomType
    frameScore
    sourceClipIndex
    sourceFramePosition
    originalImageURI
    enhancedImageURI
    stagedImageURI
    createdAt
    errorMessage
  }
`);

export const TourShotsQuery = graphql(
  `
  query TourShots($tourID: ID!) {
    tour(tourID: $tourID) { id title status { status } shotsGenerating stagingAvailable shots { ...ShotFields } }
    me { user { id profile { id name surname } } }
  }
`,
  [ShotFields],
);

export const GenerateTourShotsMutation = graphql(
  `
  mutation GenerateTourShots($tourId: ID!) {
    generateTourShots(tourId: $tourId) { id shotsGenerating shots { ...ShotFields } }
  }
`,
  [ShotFields],
);

export const RegenerateShotMutation = graphql(`
  mutation RegenerateShot($shotId: ID!) {
    regenerateShot(shotId: $shotId) { id shotStatus enhancedImageURI errorMessage }
  }
`);

export const GenerateStagedShotMutation = graphql(`
  mutation GenerateStagedShot($shotId: ID!, $stagingPrompt: String) {
    generateStagedShot(shotId: $shotId, stagingPrompt: $stagingPrompt) { id shotStatus stagedImageURI errorMessage }
  }
`);
