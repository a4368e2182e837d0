/** The configured AI image service (AI_WORKER_URL): POST /inpainting with image, prompt, width and height. */
import { ERROR_CODES } from '@roomwalk/shared';
import { AppError } from '../../core/errors.js';

export const AI_NOT_CONFIGURED_TEXT = 'AI image service is not configured (AI_WORKER_URL).';
const AI_WORKER_TIMEOUT_MS = 120_000;
export const AI_IMAGE_MAX_BYTES = 15 * 1024 * 1024;

function aiWorkerUrl(base: string | undefined): string {
  if (!base) throw new AppError(ERROR_CODES.SERVICE_NOT_CONFIGURED, AI_NOT_CONFIGURED_TEXT);
  return `${base.replace(/\/$/, '')}/inpainting`;
}

/** Sends one image to the service; answers the image bytes and their type, or throws with the service's status. */
export async function callInpainting(
  base: string | undefined,
  o: {
    image: Buffer;
    filename?: string;
    contentType?: string;
    prompt: string;
    width: number;
    height: number;
    signal?: AbortSignal;
  },
): Promise<{ body: Buffer; contentType: string }> {
  const url = aiWorkerUrl(base);
  const form = new FormData();
  form.append(
    'image',
    new Blob([new Uint8Array(o.image)], { type: o.contentType ?? 'image/jpeg' }),
    o.filename ?? 'image.jpg',
  );
  form.append('prompt', o.prompt);
  form.append('width', String(o.width));
  form.append('height', String(o.height));
  const res = await fetch(url, {
    method: 'POST',
    body: form,
    signal: o.signal ?? AbortSignal.timeout(AI_WORKER_TIMEOUT_MS),
  });
  const contentType = res.headers.get('content-type') ?? 'application/octet-stream';
  const body = Buffer.from(await res.arrayBuffer());
  if (!res.ok) throw new AiWorkerError(res.status, body.toString('utf8').slice(0, 200));
  if (!contentType.startsWith('image/')) throw new AiWorkerError(502, 'the AI service did not answer an image');
  if (body.length > AI_IMAGE_MAX_BYTES)
    throw new AiWorkerError(502, 'the AI service answered an image that is too large');
  return { body, contentType };
}

export class AiWorkerError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`AI service answered ${status}${detail ? `: ${detail}` : ''}`);
  }
}
