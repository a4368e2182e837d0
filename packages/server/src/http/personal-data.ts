/**
 * The links of a person's data, opened from mails: the export download (signed, expiring), the page that deletes a
 * visitor's lead and the page that confirms the deletion of an account that signs in with Google. A link only shows
 * a page with a button; the change happens on the button's POST, so a mail scanner opening links deletes nothing.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isUuid } from '../core/ids.js';
import { escapeHtml as esc } from '../core/html.js';
import { checkDeletionLink, confirmDeletionLink } from '../services/personal-data/account-deletion.js';
import { exportForDownload } from '../services/personal-data/exports.js';
import { eraseLead, leadForErasure } from '../services/personal-data/lead-erasure.js';
import { checkLink } from '../services/personal-data/signing.js';
import type { Services } from '../services/services.js';
import { sendPage } from './html-page.js';

type Query = Record<string, unknown>;

const day = (d: Date) =>
  d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

function message(
  reply: FastifyReply,
  services: Services,
  status: number,
  title: string,
  text: string,
  role: 'status' | 'alert' | null = null,
) {
  const box = role
    ? `<div class="${role === 'alert' ? 'alert' : 'status'}" role="${role}"><p style="margin:0">${esc(text)}</p></div>`
    : `<p>${esc(text)}</p>`;
  return sendPage(reply, services, status, title, `<h1>${esc(title)}</h1>${box}`);
}

const confirmForm = (action: string, fields: Record<string, string>, label: string) =>
  `<form method="post" action="${esc(action)}">${Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('')}<button type="submit">${esc(label)}</button></form>`;

const EXPIRED_EXPORT =
  'This download link has expired, and the file was removed. Ask for a new export on your Account page.';

export async function registerPersonalDataRoutes(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4 * 1024 },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );

    scope.get<{ Params: { id: string }; Querystring: Query }>('/data-export/:id', async (req, reply) => {
      const id = req.params.id;
      const check = isUuid(id) ? checkLink(services, 'data-export', id, req.query.s, req.query.e) : 'invalid';
      if (check === 'invalid')
        return message(
          reply,
          services,
          404,
          'Link not valid',
          'This download link is not valid. Open the link from the mail again, or ask for a new export on your Account page.',
          'alert',
        );
      if (check === 'expired') return message(reply, services, 410, 'Link expired', EXPIRED_EXPORT, 'alert');
      const found = await exportForDownload(services, id);
      if (found === null)
        return message(reply, services, 404, 'Link not valid', 'This export no longer exists.', 'alert');
      if (found === 'expired') return message(reply, services, 410, 'Link expired', EXPIRED_EXPORT, 'alert');
      const obj = await services.storage.get(found.key);
      if (!obj) return message(reply, services, 410, 'Link expired', EXPIRED_EXPORT, 'alert');
      return reply
        .header('content-type', 'application/zip')
        .header('content-length', String(obj.size))
        .header(
          'content-disposition',
          `attachment; filename="roomwalk-data-${found.createdAt.toISOString().slice(0, 10)}.zip"`,
        )
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .send(obj.stream);
    });

    scope.get<{ Params: { id: string }; Querystring: Query }>('/lead-erasure/:id', async (req, reply) => {
      const id = req.params.id;
      const lead = isUuid(id) ? await leadForErasure(services, id, req.query.s) : ({ state: 'invalid' } as const);
      if (lead.state === 'invalid')
        return message(
          reply,
          services,
          404,
          'Link not valid',
          'This link is not valid. Open it from the mail again.',
          'alert',
        );
      if (lead.state === 'gone')
        return message(
          reply,
          services,
          200,
          'Your details are deleted',
          'Your details are no longer held for this tour.',
          'status',
        );
      return sendPage(
        reply,
        services,
        200,
        'Delete your details',
        `<h1>Delete your details</h1><p>You left your name and contact details on the tour "${esc(lead.tourTitle)}". Deleting them removes them from the agent's list of leads. This cannot be undone.</p>${confirmForm(`/lead-erasure/${id}`, { s: String(req.query.s) }, 'Delete my details')}`,
      );
    });

    scope.post<{ Params: { id: string }; Body: Query | undefined }>('/lead-erasure/:id', async (req, reply) => {
      const id = req.params.id;
      const outcome = isUuid(id) ? await eraseLead(services, id, req.body?.s) : 'invalid';
      if (outcome === 'invalid')
        return message(
          reply,
          services,
          404,
          'Link not valid',
          'This link is not valid. Open it from the mail again.',
          'alert',
        );
      return message(
        reply,
        services,
        200,
        'Your details are deleted',
        'Your details are deleted. The agent no longer has them in their list of leads.',
        'status',
      );
    });

    scope.get<{ Params: { id: string }; Querystring: Query }>('/account-deletion/:id', async (req, reply) => {
      const id = req.params.id;
      const check = isUuid(id) ? await checkDeletionLink(services, id, req.query.s, req.query.e) : 'invalid';
      if (check === 'invalid')
        return message(
          reply,
          services,
          404,
          'Link not valid',
          'This link is not valid. Ask again on your Account page.',
          'alert',
        );
      if (check === 'expired')
        return message(
          reply,
          services,
          410,
          'Link expired',
          'This link has expired. Ask again on your Account page if you still want to delete your account.',
          'alert',
        );
      const days = services.config.ACCOUNT_DELETION_GRACE_DAYS;
      return sendPage(
        reply,
        services,
        200,
        'Delete your account',
        `<h1>Delete your account</h1><p>Your account will be deleted in ${days} days, and your company too when nobody else is left in it. You will be signed out now. Sign in before then to cancel.</p>${confirmForm(`/account-deletion/${id}`, { e: String(req.query.e), s: String(req.query.s) }, 'Delete my account')}`,
      );
    });

    scope.post<{ Params: { id: string }; Body: Query | undefined }>('/account-deletion/:id', async (req, reply) => {
      const id = req.params.id;
      const outcome = isUuid(id) ? await confirmDeletionLink(services, id, req.body?.e, req.body?.s) : 'invalid';
      if (outcome === 'invalid')
        return message(
          reply,
          services,
          404,
          'Link not valid',
          'This link is not valid. Ask again on your Account page.',
          'alert',
        );
      if (outcome === 'expired')
        return message(
          reply,
          services,
          410,
          'Link expired',
          'This link has expired. Ask again on your Account page if you still want to delete your account.',
          'alert',
        );
      if ('refused' in outcome)
        return message(reply, services, 409, 'Your account cannot be deleted yet', outcome.refused, 'alert');
      return message(
        reply,
        services,
        200,
        'Your account will be deleted',
        `Your account will be deleted on ${day(outcome.purgeAfter)}. We mailed you what goes. Sign in before then to cancel.`,
        'status',
      );
    });
  });
}
