/**
 * Development-only page listing the mails kept by the outbox mailer, with their attachments (never registered in
 * production).
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '@roomwalk/shared';
import type { Services } from '../services/services.js';
import { escapeHtml } from '../core/html.js';
import { refuse } from './refuse.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function registerDevOutbox(app: FastifyInstance, services: Services): Promise<void> {
  if (!services.config.isDev || services.mailer.kind !== 'outbox') return;
  const attachmentUrl = (mailId: string, position: number) => `/dev/outbox/${mailId}/attachments/${position}`;
  /** The newest 100 mails, each with its attachments' names, types, sizes and download paths. */
  const recent = async () => {
    const mails = await services.db
      .selectFrom('mail_outbox')
      .selectAll()
      .orderBy('created_at', 'desc')
      .limit(100)
      .execute();
    const files = mails.length
      ? await services.db
          .selectFrom('mail_outbox_attachments')
          .select([
            'mail_id',
            'position',
            'filename',
            'content_type',
            (eb) => eb.fn<number>('octet_length', ['content']).as('size'),
          ])
          .where(
            'mail_id',
            'in',
            mails.map((m) => m.id),
          )
          .orderBy('position')
          .execute()
      : [];
    return mails.map((m) => ({
      ...m,
      attachments: files
        .filter((f) => f.mail_id === m.id)
        .map((f) => ({
          filename: f.filename,
          contentType: f.content_type,
          size: Number(f.size),
          url: attachmentUrl(m.id, f.position),
        })),
    }));
  };
  app.get('/dev/outbox.json', recent);
  app.get<{ Params: { mailId: string; position: string } }>(
    '/dev/outbox/:mailId/attachments/:position',
    async (req, reply) => {
      const { mailId, position } = req.params;
      const file =
        UUID.test(mailId) && /^\d{1,3}$/.test(position)
          ? await services.db
              .selectFrom('mail_outbox_attachments')
              .selectAll()
              .where('mail_id', '=', mailId)
              .where('position', '=', Number(position))
              .executeTakeFirst()
          : undefined;
      if (!file) return refuse(reply, ERROR_CODES.NOT_FOUND, 'This attachment was not found.');
      return reply
        .type(file.content_type)
        .header('content-disposition', `attachment; filename="${file.filename.replace(/[^\w.-]/g, '_')}"`)
        .send(file.content);
    },
  );
  app.get('/dev/outbox', async (_req, reply) => {
    const items = (await recent())
      .map((m) => {
        const links = (m.links as string[])
          .map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`)
          .join('');
        const files = m.attachments
          .map(
            (f) =>
              `<li>Attachment: <a href="${escapeHtml(f.url)}" download>${escapeHtml(f.filename)}</a> (${escapeHtml(f.contentType)}, ${Math.ceil(f.size / 1024)} KB)</li>`,
          )
          .join('');
        return `<article><h2>${escapeHtml(m.subject)}</h2><p>To ${escapeHtml(m.to_address)} · ${new Date(m.created_at).toISOString()}</p><ul>${links}${files}</ul><pre>${escapeHtml(m.text_body)}</pre></article>`;
      })
      .join('<hr>');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="/favicon.svg" type="image/svg+xml"><title>Development outbox</title></head><body><h1>Development outbox</h1>${items || '<p>No mail yet.</p>'}</body></html>`,
      );
  });
}
