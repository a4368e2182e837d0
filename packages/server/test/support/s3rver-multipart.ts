/**
 * s3rver 3.7 implements CreateMultipartUpload, UploadPart and CompleteMultipartUpload but not ListParts,
 * AbortMultipartUpload or ListMultipartUploads (it answers NotImplemented). This adds the three, as S3 documents
 * them, over s3rver's own store (<dir>/<bucket>/._S3rver_uploads/<uploadId>/<partNumber>[.md5]), so our adapter's
 * real S3 calls run against it. Call before server.run().
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type S3rver from 's3rver';

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Ctx {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  status: number;
  type: string;
  body: unknown;
}

export function addS3rverMultipartListing(server: S3rver, directory: string): void {
  const uploadsDir = (bucket: string) => path.join(directory, bucket, '._S3rver_uploads');
  const noSuchUpload = (ctx: Ctx) => {
    ctx.status = 404;
    ctx.type = 'application/xml';
    ctx.body = xml('<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>');
  };
  const middleware = async (ctx: Ctx, next: () => Promise<void>) => {
    const [, bucket, ...rest] = ctx.path.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const uploadId = ctx.query.uploadId;
    if (
      bucket &&
      key &&
      uploadId &&
      /^[0-9a-f]+$/.test(uploadId) &&
      (ctx.method === 'GET' || ctx.method === 'DELETE')
    ) {
      const dir = path.join(uploadsDir(bucket), uploadId);
      const storedKey = await fs.readFile(path.join(dir, 'key'), 'utf8').catch(() => null);
      if (storedKey !== key) return noSuchUpload(ctx);
      if (ctx.method === 'DELETE') {
        await fs.rm(dir, { recursive: true, force: true });
        ctx.status = 204;
        ctx.body = null;
        return;
      }
      const parts: string[] = [];
      const names = (await fs.readdir(dir)).filter((n) => /^\d+$/.test(n)).sort((a, b) => Number(a) - Number(b));
      for (const n of names) {
        const [st, md5] = await Promise.all([
          fs.stat(path.join(dir, n)),
          fs.readFile(path.join(dir, `${n}.md5`), 'utf8').catch(() => ''),
        ]);
        parts.push(
          `<Part><PartNumber>${n}</PartNumber><LastModified>${st.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${st.size}</Size></Part>`,
        );
      }
      ctx.status = 200;
      ctx.type = 'application/xml';
      ctx.body = xml(
        `<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${esc(bucket)}</Bucket><Key>${esc(key)}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`,
      );
      return;
    }
    if (bucket && !key && ctx.method === 'GET' && 'uploads' in ctx.query) {
      const uploads: string[] = [];
      for (const id of await fs.readdir(uploadsDir(bucket)).catch(() => [] as string[])) {
        const k = await fs.readFile(path.join(uploadsDir(bucket), id, 'key'), 'utf8').catch(() => null);
        if (k === null || (ctx.query.prefix && !k.startsWith(ctx.query.prefix))) continue;
        const st = await fs.stat(path.join(uploadsDir(bucket), id));
        uploads.push(
          `<Upload><Key>${esc(k)}</Key><UploadId>${id}</UploadId><Initiated>${st.birthtime.toISOString()}</Initiated></Upload>`,
        );
      }
      ctx.status = 200;
      ctx.type = 'application/xml';
      ctx.body = xml(
        `<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${esc(bucket)}</Bucket><IsTruncated>false</IsTruncated>${uploads.join('')}</ListMultipartUploadsResult>`,
      );
      return;
    }
    await next();
  };
  (server as unknown as { middleware: unknown[] }).middleware.unshift(middleware);
}
