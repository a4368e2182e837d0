/**
 * Resumable multipart uploads, the protocol of Uppy's S3 multipart client: start (or resume the same
 * file's unfinished upload), one signed URL per part, the parts stored so far, complete, abort. The tour is then
 * created by fileSubmitPreSignedUpload(key) as for a single PUT. Rules in services/multipart-uploads.ts.
 */
import { builder, SuccessRef } from '../builder.js';
import { requireAuth } from '../guards.js';
import {
  abortMultipartUpload,
  completeMultipartUpload,
  listMultipartParts,
  signMultipartPart,
  startMultipartUpload,
  type MultipartUpload,
} from '../../services/multipart-uploads.js';
import type { StoredPart } from '../../storage/storage.js';
import { HeaderRef } from './tours.js';
import { attachPhotoSource } from '../../services/photo-source.js';

const MultipartStartInput = builder.inputType('UploadMultipartStartInput', {
  fields: (t) => ({
    extension: t.string({ required: true, description: 'The file extension, e.g. mov.' }),
    fileName: t.string({
      required: true,
      description: 'With size and lastModified, identifies the file so that picking it again resumes its upload.',
    }),
    size: t.float({ required: true, description: 'Bytes (a Float: videos may exceed 2 GiB).' }),
    lastModified: t.float({ required: true, description: "The file's last-modified time, ms since the epoch." }),
    photoSourceFor: t.id({
      required: false,
      description:
        "The tour this upload is the original of (its photos' full-resolution source, tourPhotoSourceAttach): no tour slot needed; a tour the caller may edit.",
    }),
    sizeAtEnd: t.boolean({
      required: false,
      description:
        'True when the file is still being made (a video converted on the device): size is then a limit, each part states its size when signed, and uploadMultipartComplete states the real size. Never resumed by picking the file again.',
    }),
  }),
});

const MultipartPartInput = builder.inputType('UploadMultipartPartInput', {
  fields: (t) => ({
    key: t.string({ required: true }),
    uploadId: t.string({ required: true }),
    partNumber: t.int({ required: true, description: '1-based.' }),
    size: t.float({
      required: false,
      description:
        "The part's bytes: required where the size comes at the end (at most partSize); elsewhere it must be the part's exact size.",
    }),
  }),
});

const MultipartRefInput = builder.inputType('UploadMultipartRefInput', {
  fields: (t) => ({ key: t.string({ required: true }), uploadId: t.string({ required: true }) }),
});

const PhotoSourceInput = builder.inputType('TourPhotoSourceAttachInput', {
  fields: (t) => ({
    tourId: t.id({ required: true }),
    key: t.string({
      required: true,
      description: "The original's completed upload (its key from uploadMultipartStart).",
    }),
  }),
});

const MultipartUploadRef = builder.objectRef<MultipartUpload>('MultipartUpload').implement({
  description: 'A resumable upload; refusals come back in error (a code) and message, as for fileGetPreSignedUrl.',
  fields: (t) => ({
    key: t.exposeString('key', { nullable: true }),
    uploadId: t.exposeString('uploadId', { nullable: true }),
    partSize: t.exposeFloat('partSize', { description: 'Every part but the last has exactly this many bytes.' }),
    partCount: t.exposeInt('partCount'),
    resumed: t.exposeBoolean('resumed', {
      description: 'True when an unfinished upload of the same file was found: list its parts before sending.',
    }),
    error: t.exposeString('error', { nullable: true }),
    message: t.exposeString('message', { nullable: true }),
  }),
});

const UploadPartUrlRef = builder
  .objectRef<{ url: string; headers: Array<{ key: string; value: string }> }>('UploadPartUrl')
  .implement({
    fields: (t) => ({ url: t.exposeString('url'), headers: t.field({ type: [HeaderRef], resolve: (p) => p.headers }) }),
  });

const UploadedPartRef = builder.objectRef<StoredPart>('UploadedPart').implement({
  fields: (t) => ({ partNumber: t.exposeInt('partNumber'), size: t.exposeFloat('size'), etag: t.exposeString('etag') }),
});

const CompletedUploadRef = builder.objectRef<{ key: string; size: number }>('CompletedUpload').implement({
  fields: (t) => ({ key: t.exposeString('key'), size: t.exposeFloat('size') }),
});

builder.queryFields((t) => ({
  uploadMultipartParts: t.field({
    type: [UploadedPartRef],
    description: 'The parts of an unfinished upload already stored.',
    args: { input: t.arg({ type: MultipartRefInput, required: true }) },
    resolve: (_r, { input }, ctx) => listMultipartParts(ctx.services, requireAuth(ctx), input.key, input.uploadId),
  }),
}));

builder.mutationFields((t) => ({
  uploadMultipartStart: t.field({
    type: MultipartUploadRef,
    description: 'Starts a resumable upload of one video, or answers the unfinished upload of the same file.',
    args: { input: t.arg({ type: MultipartStartInput, required: true }) },
    resolve: (_r, { input }, ctx) => startMultipartUpload(ctx.services, requireAuth(ctx), input),
  }),
  uploadMultipartSignPart: t.field({
    type: UploadPartUrlRef,
    description: 'A signed, expiring PUT URL for one part of exactly its size; the answer to the PUT carries the ETag.',
    args: { input: t.arg({ type: MultipartPartInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      signMultipartPart(ctx.services, requireAuth(ctx), input.key, input.uploadId, input.partNumber, input.size),
  }),
  uploadMultipartComplete: t.field({
    type: CompletedUploadRef,
    description:
      'Joins the stored parts; refused while any part is missing or of the wrong size. Then call fileSubmitPreSignedUpload.',
    args: {
      input: t.arg({ type: MultipartRefInput, required: true }),
      size: t.arg.float({
        required: false,
        description:
          "The file's real size: required where it was announced as a limit (sizeAtEnd); elsewhere it must be the size announced.",
      }),
    },
    resolve: (_r, { input, size }, ctx) =>
      completeMultipartUpload(ctx.services, requireAuth(ctx), input.key, input.uploadId, size),
  }),
  tourPhotoSourceAttach: t.field({
    type: SuccessRef,
    description:
      "For a tour made from a video converted on the device: the original, uploaded after it, from which the professional photos are taken at full resolution. Checked in the background (probed; kept only when it is the same video, larger); the tour's uploader only.",
    args: { input: t.arg({ type: PhotoSourceInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      await attachPhotoSource(ctx.services, requireAuth(ctx), input.tourId, input.key);
      return { success: true };
    },
  }),
  uploadMultipartAbort: t.field({
    type: SuccessRef,
    description: 'Cancels an unfinished upload and deletes its parts.',
    args: { input: t.arg({ type: MultipartRefInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      await abortMultipartUpload(ctx.services, requireAuth(ctx), input.key, input.uploadId);
      return { success: true };
    },
  }),
}));
