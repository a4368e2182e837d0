/**
 * The local provider's pages (used when Stripe is not configured): a checkout page that takes a test card and a
 * billing portal to change or cancel the plan. Self-contained HTML (no script, inline styles), native form controls
 * with labels, so every step works by keyboard and with a screen reader.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { countOf, formatPrice, planById, shownUploadLimit } from '@roomwalk/shared';
import type { Services } from '../services/services.js';
import { routeRateLimit } from './refuse.js';
import { checkCard, LOCAL_DECLINE_CARDS, type CardField } from '../services/billing/local-cards.js';
import { applyPortalAction, completeLocalCheckout, findCheckoutSession, findPortalSession, type PortalAction, type PortalView } from '../services/billing/local-provider.js';
import { catalogueTiers, type PriceTier } from '../services/billing/provider.js';
import { humanDate } from '../services/reports/report-table.js';
import { countActiveTours } from '../services/licenses.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLES = `
:root { color-scheme: light; --ink: #1f2933; --muted: #52606d; --line: #9aa5b1; --accent: #1849a9; --error: #b42318; --ok: #05603a; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f5f7fa; }
main { max-width: 32rem; margin: 2rem auto; padding: 1.5rem; background: #fff; border-radius: 12px; box-shadow: 0 1px 4px rgba(0,0,0,.12); }
.brand { font-weight: 700; color: var(--accent); margin: 0 0 .5rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; } h2 { font-size: 1.125rem; margin: 1.5rem 0 .5rem; }
.price { font-size: 1.25rem; margin: .25rem 0 1rem; }
.note { background: #eff4ff; border-left: 4px solid var(--accent); padding: .75rem 1rem; margin: 1rem 0; }
.alert { background: #fef3f2; border-left: 4px solid var(--error); padding: .75rem 1rem; margin: 1rem 0; color: var(--error); }
.status { background: #ecfdf3; border-left: 4px solid var(--ok); padding: .75rem 1rem; margin: 1rem 0; color: var(--ok); }
.field { margin: 0 0 1rem; display: flex; flex-direction: column; }
.row { display: flex; gap: 1rem; } .row .field { flex: 1; }
label, legend { font-weight: 600; margin-bottom: .25rem; }
input[type=text] { font: inherit; padding: .6rem .75rem; border: 1px solid var(--line); border-radius: 6px; }
input[aria-invalid=true] { border-color: var(--error); border-width: 2px; }
.error { color: var(--error); margin: .25rem 0 0; font-size: .9375rem; }
.hint { color: var(--muted); margin: .25rem 0 0; font-size: .9375rem; }
fieldset { border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin: 0 0 1rem; }
.choice { display: flex; gap: .5rem; align-items: baseline; margin: .5rem 0 0; } .choice label { font-weight: 400; }
.choice + .hint { margin: 0 0 .5rem 1.75rem; }
button { font: inherit; font-weight: 600; padding: .7rem 1.25rem; border-radius: 6px; border: 2px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #f79009; outline-offset: 2px; }
ul { padding-left: 1.25rem; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)} - Roomwalk</title>
<style>${STYLES}</style>
</head>
<body>
<main>
<p class="brand">Roomwalk</p>
${body}
</main>
</body>
</html>`;
}

function send(reply: FastifyReply, services: Services, status: number, title: string, body: string) {
  let formTargets = "'self'";
  try {
    formTargets += ` ${new URL(services.config.publicUrl).origin}`;
  } catch {
    /* keep 'self' */
  }
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', `default-src 'none'; style-src 'unsafe-inline'; form-action ${formTargets}; base-uri 'none'; frame-ancestors 'none'`)
    .send(page(title, body));
}

const monthly = (t: PriceTier) => `${formatPrice(t.flatAmount, t.currencySymbol)} / month`;

function planSummary(t: PriceTier): string {
  return `<ul>
<li>${countOf(t.upTo, 'active tour')}</li>
<li>${shownUploadLimit(t.upTo)} uploads a month</li>
<li>${t.features.map(esc).join(', ')}</li>
</ul>`;
}

const TEST_NOTE = `<div class="note" role="note"><p style="margin:0">Test checkout: no money moves and no card is stored.
Use card <strong>4242 4242 4242 4242</strong> with any future expiry date and any 3-digit security code.
<strong>4000 0000 0000 0002</strong> shows a declined card.</p></div>`;

const FIELD_LABELS: Record<CardField, string> = { cardNumber: 'Card number', expiry: 'Expiry date (MM / YY)', cvc: 'Security code (CVC)' };

function checkoutForm(tier: PriceTier, cancelUrl: string, state: { values?: { cardNumber?: string; expiry?: string }; fields?: Partial<Record<CardField, string>>; declined?: string } = {}): string {
  const fields = state.fields ?? {};
  const errors = Object.entries(fields) as Array<[CardField, string]>;
  let summary = '';
  if (state.declined) summary = `<div class="alert" role="alert" id="form-error" tabindex="-1" autofocus><p style="margin:0"><strong>Payment declined.</strong> ${esc(state.declined)}</p></div>`;
  else if (errors.length > 0) {
    summary = `<div class="alert" role="alert" id="form-error" tabindex="-1" autofocus><p style="margin:0 0 .25rem"><strong>Check the card details:</strong></p><ul style="margin:0">${errors
      .map(([f, m]) => `<li><a href="#${f}">${esc(FIELD_LABELS[f])}: ${esc(m)}</a></li>`)
      .join('')}</ul></div>`;
  }
  const input = (name: CardField, attrs: string, value = '') => {
    const err = fields[name];
    const described = [name === 'expiry' ? 'expiry-hint' : '', err ? `${name}-error` : ''].filter(Boolean).join(' ');
    return `<div class="field">
<label for="${name}">${FIELD_LABELS[name]}</label>
<input type="text" id="${name}" name="${name}" ${attrs} required value="${esc(value)}"${err ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}>
${name === 'expiry' ? '<p class="hint" id="expiry-hint">For example 12 / 30</p>' : ''}
${err ? `<p class="error" id="${name}-error">${esc(err)}</p>` : ''}
</div>`;
  };
  return `<h1>Subscribe to ${esc(tier.tierName)}</h1>
<p class="price"><strong>${esc(monthly(tier))}</strong></p>
${planSummary(tier)}
${TEST_NOTE}
${summary}
<form method="post" novalidate>
${input('cardNumber', 'inputmode="numeric" autocomplete="cc-number" maxlength="23"', state.values?.cardNumber)}
<div class="row">
${input('expiry', 'autocomplete="cc-exp" maxlength="7"', state.values?.expiry)}
${input('cvc', 'inputmode="numeric" autocomplete="cc-csc" maxlength="4"')}
</div>
<button type="submit">Pay ${esc(formatPrice(tier.flatAmount, tier.currencySymbol))} and subscribe</button>
</form>
<p><a href="${esc(cancelUrl)}">Cancel and return to Roomwalk</a></p>`;
}

function messagePage(reply: FastifyReply, services: Services, status: number, title: string, text: string) {
  return send(reply, services, status, title, `<h1>${esc(title)}</h1><p>${esc(text)}</p><p><a href="${esc(`${services.config.publicUrl}/account/subscriptions`)}">Back to plans</a></p>`);
}

const NOTICES: Record<string, string> = {
  changed: 'Your plan was changed.',
  canceled: 'Your plan is cancelled. It stays until the end of the paid month.',
  resumed: 'Your plan will renew again.',
  unchanged: 'Nothing changed.',
  'unknown-plan': 'That plan is not available.',
};

async function portalBody(services: Services, view: PortalView, notice: string | undefined): Promise<string> {
  const back = `<p><a href="${esc(view.session.return_url)}">Return to Roomwalk</a></p>`;
  const status = notice && NOTICES[notice] ? `<div class="status" role="status">${esc(NOTICES[notice])}</div>` : '';
  const sub = view.subscription;
  const state = view.state;
  if (!sub || !state) return `<h1>Manage your plan</h1>${status}<p>Your company has no active subscription. Choose a plan on the subscriptions page.</p>${back}`;
  const tiers = catalogueTiers();
  const current = tiers.find((t) => t.planId === sub.plan_id);
  const plan = planById(sub.plan_id);
  const active = await countActiveTours(services.db, { companyId: sub.company_id });
  const periodEnd = state.currentPeriodEnd ? humanDate(state.currentPeriodEnd) : '';
  const renewal = sub.cancel_at
    ? `<p>Cancelled: your plan ends on <strong>${esc(humanDate(new Date(sub.cancel_at)))}</strong>, then your company moves to the Free plan.</p>`
    : `<p>Renews on <strong>${esc(periodEnd)}</strong>.</p>`;
  const others = tiers.filter((t) => t.flatAmount > 0 && t.planId !== sub.plan_id);
  const choices = others
    .map((t, i) => {
      const warn = active > t.upTo ? ` Your ${active} active tours are more than ${t.upTo}: the newest ${t.upTo} stay active, the others are deactivated.` : '';
      return `<div class="choice"><input type="radio" id="plan-${esc(t.planId)}" name="priceId" value="${esc(t.priceId)}"${i === 0 ? ' required' : ''} aria-describedby="plan-${esc(t.planId)}-desc">
<label for="plan-${esc(t.planId)}"><strong>${esc(t.tierName)}</strong>, ${esc(monthly(t))}</label></div>
<p class="hint" id="plan-${esc(t.planId)}-desc">${countOf(t.upTo, 'active tour')}, ${shownUploadLimit(t.upTo)} uploads a month.${esc(warn)}</p>`;
    })
    .join('\n');
  const freeAllowance = planById('free')?.upTo ?? 1;
  const cancelForm = sub.cancel_at
    ? `<h2 id="resume-title">Keep your plan</h2><form method="post" aria-labelledby="resume-title"><input type="hidden" name="action" value="resume"><button type="submit">Keep ${esc(plan?.tierName ?? 'my plan')}</button></form>`
    : `<h2 id="cancel-title">Cancel plan</h2>
<p id="cancel-desc">Your plan stays until ${esc(periodEnd)}. Then your company moves to the Free plan: ${freeAllowance} active tour; the newest stays active and the others are deactivated until you reactivate them on a larger plan.</p>
<form method="post" aria-labelledby="cancel-title" aria-describedby="cancel-desc"><input type="hidden" name="action" value="cancel"><button type="submit" class="secondary">Cancel plan</button></form>`;
  return `<h1>Manage your plan</h1>
${status}
<h2>Current plan</h2>
<p><strong>${esc(current?.tierName ?? sub.plan_id)}</strong>${current ? `, ${esc(monthly(current))}` : ''}. Card ending in ${esc(sub.card_last4)}.</p>
${renewal}
${
  others.length > 0
    ? `<h2 id="change-title">Change plan</h2>
<form method="post" aria-labelledby="change-title">
<fieldset><legend>Choose a plan</legend>
${choices}
</fieldset>
<input type="hidden" name="action" value="change">
<button type="submit">Change plan</button>
</form>`
    : ''
}
${cancelForm}
${back}`;
}

export async function registerBillingRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const localOnly = () => !services.config.STRIPE_SECRET_KEY;
  // Card attempts per client IP (the local page takes no real cards, but it should not invite guessing either).
  const attemptLimit = routeRateLimit(services, 'billingCardAttempt');

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    scope.get<{ Params: { sessionId: string } }>('/billing/checkout/:sessionId', async (req, reply) => {
      if (!localOnly()) return messagePage(reply, services, 404, 'Not found', 'Payments go through Stripe on this server.');
      const s = await findCheckoutSession(services, req.params.sessionId);
      if (!s || !s.tier) return messagePage(reply, services, 404, 'Checkout not found', 'This checkout link is not valid. Choose a plan again.');
      if (s.status === 'complete') return reply.redirect(s.success_url, 303);
      if (s.expired) return messagePage(reply, services, 410, 'Checkout expired', 'This checkout link has expired. Choose a plan again.');
      return send(reply, services, 200, `Subscribe to ${s.tier.tierName}`, checkoutForm(s.tier, s.cancel_url));
    });

    scope.post<{ Params: { sessionId: string }; Body: Record<string, string> | undefined }>('/billing/checkout/:sessionId', { preHandler: attemptLimit }, async (req, reply) => {
      if (!localOnly()) return messagePage(reply, services, 404, 'Not found', 'Payments go through Stripe on this server.');
      const s = await findCheckoutSession(services, req.params.sessionId);
      if (!s || !s.tier) return messagePage(reply, services, 404, 'Checkout not found', 'This checkout link is not valid. Choose a plan again.');
      if (s.status === 'complete') return reply.redirect(s.success_url, 303);
      if (s.expired) return messagePage(reply, services, 410, 'Checkout expired', 'This checkout link has expired. Choose a plan again.');
      const body = req.body && typeof req.body === 'object' ? req.body : {};
      const values = { cardNumber: String(body.cardNumber ?? '').slice(0, 40), expiry: String(body.expiry ?? '').slice(0, 10), cvc: String(body.cvc ?? '').slice(0, 10) };
      const check = checkCard(values);
      const title = `Subscribe to ${s.tier.tierName}`;
      if (!check.ok && check.kind === 'invalid') return send(reply, services, 400, title, checkoutForm(s.tier, s.cancel_url, { values, fields: check.fields }));
      if (!check.ok) return send(reply, services, 402, title, checkoutForm(s.tier, s.cancel_url, { values, declined: check.message }));
      const outcome = await completeLocalCheckout(services, s.id, check.last4);
      if (outcome === 'expired') return messagePage(reply, services, 410, 'Checkout expired', 'This checkout link has expired. Choose a plan again.');
      if (outcome === 'not-found') return messagePage(reply, services, 404, 'Checkout not found', 'This checkout link is not valid. Choose a plan again.');
      return reply.redirect(s.success_url, 303);
    });

    scope.get<{ Params: { sessionId: string }; Querystring: { notice?: string } }>('/billing/portal/:sessionId', async (req, reply) => {
      if (!localOnly()) return messagePage(reply, services, 404, 'Not found', 'Payments go through Stripe on this server.');
      const view = await findPortalSession(services, req.params.sessionId);
      if (view === 'expired') return messagePage(reply, services, 410, 'Link expired', 'This billing link has expired. Open Manage on your account page again.');
      if (!view) return messagePage(reply, services, 404, 'Link not valid', 'This billing link is not valid. Open Manage on your account page again.');
      return send(reply, services, 200, 'Manage your plan', await portalBody(services, view, req.query.notice));
    });

    scope.post<{ Params: { sessionId: string }; Body: Record<string, string> | undefined }>('/billing/portal/:sessionId', async (req, reply) => {
      if (!localOnly()) return messagePage(reply, services, 404, 'Not found', 'Payments go through Stripe on this server.');
      const view = await findPortalSession(services, req.params.sessionId);
      if (view === 'expired') return messagePage(reply, services, 410, 'Link expired', 'This billing link has expired. Open Manage on your account page again.');
      if (!view) return messagePage(reply, services, 404, 'Link not valid', 'This billing link is not valid. Open Manage on your account page again.');
      const body = req.body && typeof req.body === 'object' ? req.body : {};
      let act: PortalAction | null = null;
      if (body.action === 'change' && typeof body.priceId === 'string') act = { action: 'change', priceId: body.priceId.slice(0, 100) };
      else if (body.action === 'cancel') act = { action: 'cancel' };
      else if (body.action === 'resume') act = { action: 'resume' };
      const outcome = act ? await applyPortalAction(services, view, act) : 'unchanged';
      return reply.redirect(`/billing/portal/${encodeURIComponent(view.session.id)}?notice=${outcome}`, 303);
    });
  });
}

/** The decline numbers the local checkout knows (docs and tests). */
export const LOCAL_DECLINE_NUMBERS = Object.keys(LOCAL_DECLINE_CARDS);
