/**
 * PUT /upload-part/<uploadId>/<partNumber>: the local store's answer to an S3 pre-signed UploadPart. The
 * URL's signature binds key, upload, part number, exact size and expiry; the part is written whole or not at all
 * (a dropped connection leaves nothing) and the answer carries its ETag, as S3's does.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '@roomwalk/shared';
import { refuse } from './refuse.js';
import { LocalStorage, PartSizeError } from '../storage/local-storage.js';
import { MultipartGoneError } from '../storage/storage.js';
import { UPLOAD_KEY } from '../services/uploads.js';
import type { Services } from '../services/services.js';

function cors(req: FastifyRequest, reply: FastifyReply): void {
  reply.header('Access-Control-Allow-Origin', req.headers.origin ?? '*');
  reply.header('Access-Control-Expose-Headers', 'ETag');
  reply.header('Vary', 'Origin');
}

/** Registered inside the upload routes' scope, which takes every body as a raw stream. */
export function registerUploadPartRoute(scope: FastifyInstance, services: Services): void {
  scope.options('/upload-part/*', async (req, reply) => {
    cors(req, reply);
    reply.header('Access-Control-Allow-Methods', 'PUT, OPTIONS');
    reply.header('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'content-type');
    reply.header('Access-Control-Max-Age', '600');
    return reply.code(204).send();
  });

  scope.put('/upload-part/:uploadId/:partNumber', async (req, reply) => {
    cors(req, reply);
    const storage = services.storage;
    if (!(storage instanceof LocalStorage)) return refuse(reply, ERROR_CODES.NOT_FOUND, 'Not found.');
    const { uploadId, partNumber: partText } = req.params as { uploadId: string; partNumber: string };
    const q = req.query as Record<string, string | undefined>;
    const key = q.key ?? '';
    const partNumber = Number(partText);
    const size = Number(q.size);
    const expires = Number(q.expires);
    if (
      !UPLOAD_KEY.test(key) ||
      !q.sig ||
      !Number.isSafeInteger(partNumber) ||
      !Number.isSafeInteger(size) ||
      !Number.isSafeInteger(expires)
    ) {
      return refuse(reply, ERROR_CODES.UPLOAD_INVALID, 'This upload link is not valid.', {
        status: 403,
        unreadBody: true,
      });
    }
    const signed = { key, uploadId, partNumber, size, expires };
    if (!storage.verifyPart(signed, q.sig, 0))
      return refuse(reply, ERROR_CODES.UPLOAD_INVALID, 'This upload link is not valid.', {
        status: 403,
        unreadBody: true,
      });
    if (!storage.verifyPart(signed, q.sig))
      return refuse(reply, ERROR_CODES.UPLOAD_INVALID, 'This upload link has expired. Please try again.', {
        status: 403,
        unreadBody: true,
      });
    const declared = req.headers['content-length'] !== undefined ? Number(req.headers['content-length']) : null;
    if (declared !== null && declared > size)
      return refuse(
        reply,
        ERROR_CODES.UPLOAD_INVALID,
        `This part is larger than the upload announced (${size} bytes).`,
        { status: 413 },
      );

    const upload = await services.db
      .selectFrom('uploads')
      .select(['submitted_at', 'completed_at', 'multipart_id'])
      .where('key', '=', key)
      .executeTakeFirst();
    if (!upload || upload.multipart_id !== uploadId)
      return refuse(reply, ERROR_CODES.NOT_FOUND, 'This upload was not found.');
    if (upload.submitted_at || upload.completed_at)
      return refuse(reply, ERROR_CODES.CONFLICT, 'This upload is already complete.');

    req.raw.on('aborted', () => req.raw.destroy(new Error('upload aborted')));
    try {
      const part = await storage.putPart(key, uploadId, partNumber, size, req.raw);
      reply.header('ETag', part.etag);
      return reply.code(200).send();
    } catch (err) {
      if (err instanceof PartSizeError) {
        return err.tooLarge
          ? refuse(
              reply,
              ERROR_CODES.UPLOAD_INVALID,
              `This part is larger than the upload announced (${size} bytes).`,
              { status: 413 },
            )
          : refuse(reply, ERROR_CODES.UPLOAD_INVALID, 'This part did not arrive whole. Please try again.');
      }
      if (err instanceof MultipartGoneError)
        return refuse(reply, ERROR_CODES.NOT_FOUND, 'This upload has expired. Please upload the video again.');
      req.log.warn({ err, key, partNumber }, 'upload part failed');
      return refuse(reply, ERROR_CODES.UPLOAD_INVALID, 'This part did not arrive whole. Please try again.');
    }
  });
}
