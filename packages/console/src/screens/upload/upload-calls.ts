/**
 * The upload flow's calls to the API, as the flow's modules need them (multipart-upload.ts, stream-upload.ts,
 * send-video.ts, original-follows.ts): one typed function per operation, answering the payload or throwing an
 * UploadError in the user's words (upload-error.ts). The GraphQL client stays in the screen's hook
 * (use-upload-calls.ts), which builds these; tests pass their own.
 */
import type { VariablesOf } from 'gql.tada';
import type { UploadMultipartStartMutation } from './upload-operations.js';

/** A multipart upload in storage: its key and the store's upload id. */
interface MultipartRef {
  key: string;
  uploadId: string;
}

type StartInput = VariablesOf<typeof UploadMultipartStartMutation>['input'];

interface StartedUpload extends MultipartRef {
  partSize: number;
  /** The server found an unfinished upload of the same file: it resumes. */
  resumed: boolean;
}

interface SignedPart {
  url: string;
  headers: Record<string, string>;
}

export interface UploadCalls {
  /** Starts (or finds again, to resume) a multipart upload; a refusal (limits, licence) is thrown. */
  start(input: StartInput): Promise<StartedUpload>;
  /** A pre-signed PUT for part n; `size` where the upload states its size at the end. */
  signPart(input: MultipartRef & { partNumber: number; size?: number }): Promise<SignedPart>;
  /** The parts already stored (never from a cache: a resume reads them fresh). */
  listParts(ref: MultipartRef): Promise<Array<{ partNumber: number; size: number; etag: string }>>;
  /** Completes the upload; `size` is the real size of one stated at the end. */
  complete(ref: MultipartRef, size?: number): Promise<void>;
  /** Deletes the upload and its parts; never throws (an upload left behind is swept by the server). */
  abort(ref: MultipartRef): Promise<void>;
  /** Creates the tour from a stored upload; answers its id. */
  submit(key: string): Promise<string>;
  /** Attaches an uploaded original to a tour made from the device's mezzanine, for its photos. */
  attachPhotoSource(input: { tourId: string; key: string }): Promise<void>;
}
