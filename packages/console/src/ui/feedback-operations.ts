/** The Feedback dialog's one mutation. */
import { graphql } from '../graphql/graphql.js';

export const FeedbackSubmitMutation = graphql(`
  mutation FeedbackSubmit($input: FeedbackInput!) {
    feedbackSubmit(input: $input) { success }
  }
`);
