/** Development-only page listing the mails kept by the outbox mailer (never registered in production). */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/services.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function registerDevOutbox(app: FastifyInstance, services: Services): Promise<void> {
  if (!services.config.isDev || services.mailer.kind !== 'outbox') return;
  app.get('/dev/outbox.json', async () => services.db.selectFrom('mail_outbox').selectAll().orderBy('created_at', 'desc').limit(100).execute());
  app.get('/dev/outbox', async (_req, reply) => {
    const mails = await services.db.selectFrom('mail_outbox').selectAll().orderBy('created_at', 'desc').limit(100).execute();
    const items = mails
      .map((m) => {
        const links = (m.links as string[]).map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`).join('');
        return `<article><h2>${escapeHtml(m.subject)}</h2><p>To ${escapeHtml(m.to_address)} · ${new Date(m.created_at).toISOString()}</p><ul>${links}</ul><pre>${escapeHtml(m.text_body)}</pre></article>`;
      })
      .join('<hr>');
    return reply
      .type('text/html; charset=utf-8')
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Development outbox</title></head><body><h1>Development outbox</h1>${items || '<p>No mail yet.</p>'}</body></html>`);
  });
}
