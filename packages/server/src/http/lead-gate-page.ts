/**
 * GET/POST /lead-gate/approve?token= — the one-time link mailed to the agent when a visitor waits at a tour's lead
 * gate. The link is the credential (256 random bits, only its hash stored, 24 hours, used once), so it works without
 * signing in; GET only shows who waits and an Approve button, and the POST approves, so a mail scanner opening links
 * approves nobody (docs/decisions.md, 'Lead gate: the mailed approval link').
 */
import type { FastifyInstance } from 'fastify';
import { escapeHtml as esc } from '../core/html.js';
import type { Services } from '../services/services.js';
import { approveByMailLink, mailLinkLead } from '../services/lead-gate/approval.js';
import { sendPage } from './html-page.js';

const PATH = '/lead-gate/approve';

export async function registerLeadGatePage(app: FastifyInstance, services: Services): Promise<void> {
  const leadsUrl = () => `${services.config.publicUrl}/leads`;
  const spent = (reply: Parameters<typeof sendPage>[0]) =>
    sendPage(
      reply,
      services,
      410,
      'Link no longer valid',
      `<h1>This link no longer approves anyone</h1><p class="alert" role="alert">It was used already, or it expired (links last 24 hours).</p><p>Approve waiting visitors from <a href="${esc(leadsUrl())}">Leads</a>.</p>`,
    );

  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4 * 1024 },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );

    scope.get<{ Querystring: { token?: string } }>(PATH, async (req, reply) => {
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      const lead = await mailLinkLead(services, token);
      if (!lead) return spent(reply);
      return sendPage(
        reply,
        services,
        200,
        'Approve a visitor',
        `<h1>Let ${esc(lead.who)} continue?</h1>
<p>${esc(lead.who)} (${esc(lead.email)}) left their details on “${esc(lead.tourTitle)}” and is waiting to see the rest of the tour.</p>
<form method="post" action="${esc(PATH)}"><input type="hidden" name="token" value="${esc(token)}"><button type="submit">Approve ${esc(lead.who)}</button></form>`,
      );
    });

    scope.post<{ Body: Record<string, string> | undefined }>(PATH, async (req, reply) => {
      const body = req.body && typeof req.body === 'object' ? req.body : {};
      const token = typeof body.token === 'string' ? body.token : '';
      const lead = await mailLinkLead(services, token);
      const done = lead ? await approveByMailLink(services, token) : null;
      if (!lead || !done) return spent(reply);
      return sendPage(
        reply,
        services,
        200,
        'Visitor approved',
        `<h1>${esc(lead.who)} can continue</h1><p class="status" role="status">Approved. Their page goes on with “${esc(lead.tourTitle)}” now.</p><p>See all your leads in <a href="${esc(leadsUrl())}">Leads</a>.</p>`,
      );
    });
  });
}
