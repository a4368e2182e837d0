/** The upload screen: the video's parts to storage (resumable multipart), then the tour made from it. */
import { graphql } from '../../graphql/graphql.js';

export const FileSubmitPreSignedUploadMutation = graphql(`
  mutation FileSubmitPreSignedUpload($input: FileSubmitPreSignedUploadInput!) {
    fileSubmitPreSignedUpload(input: $input) { bucketURL tourId }
  }
`);

/** Resumable multipart uploads: the endpoints of Uppy's S3 multipart client, see multipart-upload.ts. */
export const UploadMultipartStartMutation = graphql(`
  mutation UploadMultipartStart($input: UploadMultipartStartInput!) {
    uploadMultipartStart(input: $input) { key uploadId partSize partCount resumed error message }
  }
`);

export const UploadMultipartSignPartMutation = graphql(`
  mutation UploadMultipartSignPart($input: UploadMultipartPartInput!) {
    uploadMultipartSignPart(input: $input) { url headers { key value } }
  }
`);

export const UploadMultipartPartsQuery = graphql(`
  query UploadMultipartParts($input: UploadMultipartRefInput!) {
    uploadMultipartParts(input: $input) { partNumber size etag }
  }
`);

export const UploadMultipartCompleteMutation = graphql(`
  mutation UploadMultipartComplete($input: UploadMultipartRefInput!, $size: Float) {
    uploadMultipartComplete(input: $input, size: $size) { key size }
  }
`);

export const UploadMultipartAbortMutation = graphql(`
  mutation UploadMultipartAbort($input: UploadMultipartRefInput!) {
    uploadMultipartAbort(input: $input) { success }
  }
`);

/** The original, uploaded after a tour made from the device's mezzanine, for the photos (original-follows.ts). */
export const TourPhotoSourceAttachMutation = graphql(`
  mutation TourPhotoSourceAttach($input: TourPhotoSourceAttachInput!) {
    tourPhotoSourceAttach(input: $input) { success }
  }
`);
