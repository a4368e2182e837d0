/** The upload screen: a pre-signed PUT address for the video, then the tour made from it (tours §7). */
import { graphql } from '../../graphql/graphql.js';

export const FileGetPreSignedUrlMutation = graphql(`
  mutation FileGetPreSignedUrl($input: String!) {
    fileGetPreSignedUrl(input: $input) { uploadURL key headers { key value } error message }
  }
`);

export const FileSubmitPreSignedUploadMutation = graphql(`
  mutation FileSubmitPreSignedUpload($input: FileSubmitPreSignedUploadInput!) {
    fileSubmitPreSignedUpload(input: $input) { bucketURL tourId }
  }
`);
