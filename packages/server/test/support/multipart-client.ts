/**
 * The console's multipart protocol driven from Node (tests and the big-upload check): start or resume by the file's
 * fingerprint, list the parts already stored, PUT the missing ones `parallel` at a time to their signed URLs
 * (optionally through another origin, e.g. a cutting proxy), complete, submit.
 */
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

export type Gql = (
  query: string,
  variables: Record<string, unknown>,
  token: string,
) => Promise<{ data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> }>;

export const MQ = {
  start: `mutation($input: UploadMultipartStartInput!) { uploadMultipartStart(input: $input) { key uploadId partSize partCount resumed error message } }`,
  sign: `mutation($input: UploadMultipartPartInput!) { uploadMultipartSignPart(input: $input) { url headers { key value } } }`,
  parts: `query($input: UploadMultipartRefInput!) { uploadMultipartParts(input: $input) { partNumber size etag } }`,
  complete: `mutation($input: UploadMultipartRefInput!) { uploadMultipartComplete(input: $input) { key size } }`,
  abort: `mutation($input: UploadMultipartRefInput!) { uploadMultipartAbort(input: $input) { success } }`,
  submit: `mutation($key: String!) { fileSubmitPreSignedUpload(input: { key: $key }) { bucketURL tourId } }`,
};

export interface UploadRun {
  key: string;
  uploadId: string;
  resumed: boolean;
  partCount: number;
  /** Parts found already stored when this run started. */
  skipped: number;
  /** Body bytes this run sent (including parts cut mid-way). */
  bytesSent: number;
}

export interface MultipartOptions {
  gql: Gql;
  token: string;
  file: string;
  /** Identifies the file with its size; the test keeps it fixed to resume. */
  lastModified?: number;
  parallel?: number;
  /** Rewrites a signed URL (e.g. to send it through a proxy); the signature is over path and query, not the host. */
  route?: (url: string) => string;
}

function must<T>(r: { data?: any; errors?: Array<{ message: string }> }, field: string): T {
  if (r.errors?.length) throw Object.assign(new Error(r.errors[0]!.message), { errors: r.errors });
  return r.data[field] as T;
}

/** One attempt: throws when the connection drops (the caller may run it again with the same file to resume). */
export async function uploadMultipart(o: MultipartOptions, progress?: { bytesSent: number }): Promise<UploadRun> {
  const size = (await fs.stat(o.file)).size;
  const start = must<{
    key: string;
    uploadId: string;
    partSize: number;
    partCount: number;
    resumed: boolean;
    error: string | null;
    message: string | null;
  }>(
    await o.gql(
      MQ.start,
      {
        input: {
          extension: path.extname(o.file).slice(1),
          fileName: path.basename(o.file),
          size,
          lastModified: o.lastModified ?? 1_700_000_000_000,
        },
      },
      o.token,
    ),
    'uploadMultipartStart',
  );
  if (start.error) throw new Error(`${start.error}: ${start.message}`);
  const ref = { key: start.key, uploadId: start.uploadId };
  const stored = start.resumed
    ? must<Array<{ partNumber: number }>>(await o.gql(MQ.parts, { input: ref }, o.token), 'uploadMultipartParts')
    : [];
  const have = new Set(stored.map((p) => p.partNumber));
  const todo = Array.from({ length: start.partCount }, (_, i) => i + 1).filter((n) => !have.has(n));
  const run: UploadRun = {
    ...ref,
    resumed: start.resumed,
    partCount: start.partCount,
    skipped: have.size,
    bytesSent: 0,
  };
  const counter = progress ?? { bytesSent: 0 };
  const before = counter.bytesSent;

  const putPart = async (n: number) => {
    const signed = must<{ url: string; headers: Array<{ key: string; value: string }> }>(
      await o.gql(MQ.sign, { input: { ...ref, partNumber: n } }, o.token),
      'uploadMultipartSignPart',
    );
    const startByte = (n - 1) * start.partSize;
    const end = Math.min(size, startByte + start.partSize);
    const body = createReadStream(o.file, { start: startByte, end: end - 1 });
    body.on('data', (c) => (counter.bytesSent += (c as Buffer).length));
    const res = await fetch(o.route ? o.route(signed.url) : signed.url, {
      method: 'PUT',
      headers: {
        'Content-Length': String(end - startByte),
        ...Object.fromEntries(signed.headers.map((h) => [h.key, h.value])),
      },
      body: body as unknown as RequestInit['body'],
      duplex: 'half',
    } as RequestInit);
    if (res.status !== 200) throw new Error(`part ${n}: HTTP ${res.status} ${await res.text()}`);
    if (!res.headers.get('etag')) throw new Error(`part ${n}: no ETag`);
    await res.arrayBuffer();
  };
  const queue = [...todo];
  let failure: unknown = null;
  await Promise.all(
    Array.from({ length: Math.min(o.parallel ?? 4, queue.length) }, async () => {
      while (queue.length > 0 && !failure) {
        const n = queue.shift()!;
        await putPart(n).catch((e: unknown) => (failure ??= e));
      }
    }),
  );
  run.bytesSent = counter.bytesSent - before;
  if (failure) throw Object.assign(failure as Error, { run });
  must(await o.gql(MQ.complete, { input: ref }, o.token), 'uploadMultipartComplete');
  return run;
}
