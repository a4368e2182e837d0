/**
 * The links of a person's data, opened from mails: the export download (signed, expiring), the page that deletes a
 * visitor's lead and the page that confirms the deletion of an account that signs in with Google. A link only shows
 * a page with a button; the change happens on the button's POST, so a mail scanner opening links deletes nothing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isUuid } from '../core/ids.js';
import { escapeHtml as esc } from '../core/html.js';
import { checkDeletionLink, confirmDeletionLink } from '../services/personal-data/account-deletion.js';
import { exportForDownload } from '../services/personal-data/exports.js';
import { eraseLead, leadForErasure } from '../services/personal-data/lead-erasure.js';
import { checkLink } from '../services/personal-data/signing.js';
import type { Services } from '../services/services.js';
import { sendPage } from './html-page.js';
import { utcDay } from '../core/days.js';

type Query = Record<string, unknown>;
type LinkRoute = { Params: { id: string }; Querystring: Query };
type ConfirmRoute = { Params: { id: string }; Body: Query | undefined };
type LinkRequest = FastifyRequest<LinkRoute>;
type ConfirmRequest = FastifyRequest<ConfirmRoute>;

const day = (d: Date) =>
  d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A page of one message: its status, title, text, and the box it is shown in (null: a plain paragraph). */
type Message = readonly [status: number, title: string, text: string, role: 'status' | 'alert' | null];

const EXPIRED_EXPORT =
  'This download link has expired, and the file was removed. Ask for a new export on your Account page.';
const DELETION_EXPIRED =
  'This link has expired. Ask again on your Account page if you still want to delete your account.';

const MESSAGES = {
  exportNotValid: [
    404,
    'Link not valid',
    'This download link is not valid. Open the link from the mail again, or ask for a new export on your Account page.',
    'alert',
  ],
  exportExpired: [410, 'Link expired', EXPIRED_EXPORT, 'alert'],
  exportGone: [404, 'Link not valid', 'This export no longer exists.', 'alert'],
  leadLinkNotValid: [404, 'Link not valid', 'This link is not valid. Open it from the mail again.', 'alert'],
  leadGone: [200, 'Your details are deleted', 'Your details are no longer held for this tour.', 'status'],
  leadErased: [
    200,
    'Your details are deleted',
    'Your details are deleted. The agent no longer has them in their list of leads.',
    'status',
  ],
  deletionNotValid: [404, 'Link not valid', 'This link is not valid. Ask again on your Account page.', 'alert'],
  deletionExpired: [410, 'Link expired', DELETION_EXPIRED, 'alert'],
} as const satisfies Record<string, Message>;

function message(reply: FastifyReply, services: Services, [status, title, text, role]: Message) {
  const box = role
    ? `<div class="${role === 'alert' ? 'alert' : 'status'}" role="${role}"><p style="margin:0">${esc(text)}</p></div>`
    : `<p>${esc(text)}</p>`;
  return sendPage(reply, services, status, title, `<h1>${esc(title)}</h1>${box}`);
}

const confirmForm = (action: string, fields: Record<string, string>, label: string) =>
  `<form method="post" action="${esc(action)}">${Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('')}<button type="submit">${esc(label)}</button></form>`;

export async function registerPersonalDataRoutes(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4 * 1024 },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
    scope.get<LinkRoute>('/data-export/:id', (req, reply) => downloadExport(services, req, reply));
    scope.get<LinkRoute>('/lead-erasure/:id', (req, reply) => showLeadErasure(services, req, reply));
    scope.post<ConfirmRoute>('/lead-erasure/:id', (req, reply) => eraseLeadOnConfirm(services, req, reply));
    scope.get<LinkRoute>('/account-deletion/:id', (req, reply) => showAccountDeletion(services, req, reply));
    scope.post<ConfirmRoute>('/account-deletion/:id', (req, reply) => confirmAccountDeletion(services, req, reply));
  });
}

/** The export's zip, streamed while its signed link holds and the file is still kept. */
async function downloadExport(services: Services, req: LinkRequest, reply: FastifyReply) {
  const id = req.params.id;
  const check = isUuid(id) ? checkLink(services, 'data-export', id, req.query.s, req.query.e) : 'invalid';
  if (check === 'invalid') return message(reply, services, MESSAGES.exportNotValid);
  if (check === 'expired') return message(reply, services, MESSAGES.exportExpired);
  const found = await exportForDownload(services, id);
  if (found === null) return message(reply, services, MESSAGES.exportGone);
  if (found === 'expired') return message(reply, services, MESSAGES.exportExpired);
  const obj = await services.storage.get(found.key);
  if (!obj) return message(reply, services, MESSAGES.exportExpired);
  return reply
    .header('content-type', 'application/zip')
    .header('content-length', String(obj.size))
    .header('content-disposition', `attachment; filename="roomwalk-data-${utcDay(found.createdAt)}.zip"`)
    .header('cache-control', 'private, no-store')
    .header('referrer-policy', 'no-referrer')
    .send(obj.stream);
}

/** The page with the button that deletes a visitor's lead (the link alone deletes nothing). */
async function showLeadErasure(services: Services, req: LinkRequest, reply: FastifyReply) {
  const id = req.params.id;
  const lead = isUuid(id) ? await leadForErasure(services, id, req.query.s) : ({ state: 'invalid' } as const);
  if (lead.state === 'invalid') return message(reply, services, MESSAGES.leadLinkNotValid);
  if (lead.state === 'gone') return message(reply, services, MESSAGES.leadGone);
  return sendPage(
    reply,
    services,
    200,
    'Delete your details',
    `<h1>Delete your details</h1><p>You left your name and contact details on the tour "${esc(lead.tourTitle)}". Deleting them removes them from the agent's list of leads. This cannot be undone.</p>${confirmForm(`/lead-erasure/${id}`, { s: String(req.query.s) }, 'Delete my details')}`,
  );
}

async function eraseLeadOnConfirm(services: Services, req: ConfirmRequest, reply: FastifyReply) {
  const id = req.params.id;
  const outcome = isUuid(id) ? await eraseLead(services, id, req.body?.s) : 'invalid';
  if (outcome === 'invalid') return message(reply, services, MESSAGES.leadLinkNotValid);
  return message(reply, services, MESSAGES.leadErased);
}

/** The page with the button that confirms an account's deletion (accounts signing in with Google). */
async function showAccountDeletion(services: Services, req: LinkRequest, reply: FastifyReply) {
  const id = req.params.id;
  const check = isUuid(id) ? await checkDeletionLink(services, id, req.query.s, req.query.e) : 'invalid';
  if (check === 'invalid') return message(reply, services, MESSAGES.deletionNotValid);
  if (check === 'expired') return message(reply, services, MESSAGES.deletionExpired);
  const days = services.config.ACCOUNT_DELETION_GRACE_DAYS;
  return sendPage(
    reply,
    services,
    200,
    'Delete your account',
    `<h1>Delete your account</h1><p>Your account will be deleted in ${days} days, and your company too when nobody else is left in it. You will be signed out now. Sign in before then to cancel.</p>${confirmForm(`/account-deletion/${id}`, { e: String(req.query.e), s: String(req.query.s) }, 'Delete my account')}`,
  );
}

async function confirmAccountDeletion(services: Services, req: ConfirmRequest, reply: FastifyReply) {
  const id = req.params.id;
  const outcome = isUuid(id) ? await confirmDeletionLink(services, id, req.body?.e, req.body?.s) : 'invalid';
  if (outcome === 'invalid') return message(reply, services, MESSAGES.deletionNotValid);
  if (outcome === 'expired') return message(reply, services, MESSAGES.deletionExpired);
  if ('refused' in outcome)
    return message(reply, services, [409, 'Your account cannot be deleted yet', outcome.refused, 'alert']);
  return message(reply, services, [
    200,
    'Your account will be deleted',
    `Your account will be deleted on ${day(outcome.purgeAfter)}. We mailed you what goes. Sign in before then to cancel.`,
    'status',
  ]);
}
