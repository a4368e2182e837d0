/**
 * POST /ai/inpainting: the console's AI Edit tool sends its form (image JPEG, prompt, width, height); we check the
 * caller and the sizes and forward it to AI_WORKER_URL/inpainting, answering the image. Errors are JSON
 * `{ code, message }`: 401 without a session, 400 for a bad form, 413 over the limits, 503 when no service is
 * configured, 502 when the service fails (its status in the message, for 'Error during {action}: {message}').
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '@roomwalk/shared';
import { refuse } from './refuse.js';
import { resolveAuth } from '../services/resolve-auth.js';
import type { Services } from '../services/services.js';
import { AI_IMAGE_MAX_BYTES, AI_NOT_CONFIGURED_TEXT, AiWorkerError, callInpainting } from '../services/ai/ai-worker.js';

export const AI_EDIT_MAX_SIDE = 4096;
export const AI_EDIT_PROMPT_MAX = 500;

export async function registerAiEditRoutes(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    // GraphQL uploads (mercurius-upload) own the app-wide multipart parser; this scope parses its own form.
    if (scope.hasContentTypeParser('multipart/form-data')) scope.removeContentTypeParser('multipart/form-data');
    await scope.register(multipart, { limits: { fileSize: AI_IMAGE_MAX_BYTES, files: 1, fields: 5, fieldSize: 4096 } });
    scope.post('/ai/inpainting', async (req, reply) => {
      const auth = await resolveAuth(services, req.headers.authorization ?? '');
      if (!auth) return refuse(reply, ERROR_CODES.UNAUTHENTICATED, 'Please sign in.');
      if (!services.config.AI_WORKER_URL)
        return refuse(reply, ERROR_CODES.SERVICE_NOT_CONFIGURED, AI_NOT_CONFIGURED_TEXT);
      if (!req.isMultipart())
        return refuse(reply, ERROR_CODES.BAD_USER_INPUT, 'Send the image as multipart form data.');
      let image: Buffer | null = null;
      let imageType = 'image/jpeg';
      const fields: Record<string, string> = {};
      try {
        for await (const part of req.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'image') {
              await part.toBuffer();
              continue;
            }
            image = await part.toBuffer();
            imageType = part.mimetype;
            if (part.file.truncated)
              return refuse(reply, ERROR_CODES.BAD_USER_INPUT, 'The image is too large.', { status: 413 });
          } else {
            fields[part.fieldname] = String(part.value ?? '');
          }
        }
      } catch (err) {
        const code = (err as { code?: string }).code ?? '';
        if (/LIMIT|TOO_LARGE/i.test(code))
          return refuse(reply, ERROR_CODES.BAD_USER_INPUT, 'The image is too large.', { status: 413 });
        return refuse(reply, ERROR_CODES.BAD_USER_INPUT, 'Could not read the form.');
      }
      const width = Number(fields.width);
      const height = Number(fields.height);
      const prompt = (fields.prompt ?? '').trim();
      if (!image || image.length === 0) return refuse(reply, ERROR_CODES.BAD_USER_INPUT, 'An image is required.');
      if (!/^image\/(jpeg|png|webp)$/.test(imageType))
        return refuse(reply, ERROR_CODES.BAD_USER_INPUT, 'The image must be a JPEG, PNG or WebP.');
      if (!prompt) return refuse(reply, ERROR_CODES.BAD_USER_INPUT, 'A prompt is required.');
      if (prompt.length > AI_EDIT_PROMPT_MAX)
        return refuse(reply, ERROR_CODES.BAD_USER_INPUT, `The prompt is limited to ${AI_EDIT_PROMPT_MAX} characters.`);
      for (const v of [width, height]) {
        if (!Number.isInteger(v) || v < 1)
          return refuse(reply, ERROR_CODES.BAD_USER_INPUT, 'Width and height must be whole numbers.');
        if (v > AI_EDIT_MAX_SIDE)
          return refuse(
            reply,
            ERROR_CODES.BAD_USER_INPUT,
            `Width and height are limited to ${AI_EDIT_MAX_SIDE} pixels.`,
            { status: 413 },
          );
      }
      try {
        const out = await callInpainting(services.config.AI_WORKER_URL, {
          image,
          contentType: imageType,
          prompt,
          width,
          height,
        });
        return reply
          .code(200)
          .header('content-type', out.contentType)
          .header('cache-control', 'no-store')
          .send(out.body);
      } catch (err) {
        services.log.warn({ err }, 'AI edit failed');
        const message = err instanceof AiWorkerError ? err.message : 'The AI service could not be reached.';
        return refuse(reply, ERROR_CODES.INTERNAL, message, { status: 502 });
      }
    });
  });
}
