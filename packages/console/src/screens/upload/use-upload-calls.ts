/**
 * The upload screen's GraphQL calls (upload-calls.ts says what each answers): the only upload module that holds the
 * client. Every failed call becomes an UploadError here (uploadErrorOf, uploadRefusal), so the flow has one error channel.
 */
import { useMemo } from 'react';
import { type Client, useClient } from 'urql';
import {
  FileSubmitPreSignedUploadMutation,
  TourPhotoSourceAttachMutation,
  UploadMultipartAbortMutation,
  UploadMultipartCompleteMutation,
  UploadMultipartPartsQuery,
  UploadMultipartSignPartMutation,
  UploadMultipartStartMutation,
} from './upload-operations.js';
import type { UploadCalls } from './upload-calls.js';
import { uploadErrorOf, uploadRefusal } from './upload-error.js';

export function useUploadCalls(): UploadCalls {
  const client = useClient();
  return useMemo(() => uploadCalls(client), [client]);
}

function uploadCalls(client: Client): UploadCalls {
  return {
    async start(input) {
      const r = await client.mutation(UploadMultipartStartMutation, { input }).toPromise();
      const s = r.data?.uploadMultipartStart;
      if (r.error || !s) throw uploadErrorOf(r.error);
      if (s.error || !s.key || !s.uploadId) throw uploadRefusal(s.error, s.message);
      return { key: s.key, uploadId: s.uploadId, partSize: s.partSize, resumed: s.resumed };
    },
    async signPart(input) {
      const r = await client.mutation(UploadMultipartSignPartMutation, { input }).toPromise();
      const p = r.data?.uploadMultipartSignPart;
      if (r.error || !p) throw uploadErrorOf(r.error);
      return { url: p.url, headers: Object.fromEntries(p.headers.map((h) => [h.key, h.value])) };
    },
    async listParts(ref) {
      const r = await client
        .query(UploadMultipartPartsQuery, { input: ref }, { requestPolicy: 'network-only' })
        .toPromise();
      if (r.error || !r.data) throw uploadErrorOf(r.error);
      return r.data.uploadMultipartParts;
    },
    async complete(ref, size) {
      const r = await client
        .mutation(UploadMultipartCompleteMutation, size === undefined ? { input: ref } : { input: ref, size })
        .toPromise();
      if (r.error || !r.data?.uploadMultipartComplete) throw uploadErrorOf(r.error);
    },
    async abort(ref) {
      await client
        .mutation(UploadMultipartAbortMutation, { input: ref })
        .toPromise()
        .catch(() => undefined);
    },
    async submit(key) {
      const r = await client.mutation(FileSubmitPreSignedUploadMutation, { input: { key } }).toPromise();
      const tourId = r.data?.fileSubmitPreSignedUpload.tourId;
      if (r.error || !tourId) throw uploadErrorOf(r.error);
      return tourId;
    },
    async attachPhotoSource(input) {
      const r = await client.mutation(TourPhotoSourceAttachMutation, { input }).toPromise();
      if (r.error || !r.data?.tourPhotoSourceAttach.success) throw uploadErrorOf(r.error);
    },
  };
}
