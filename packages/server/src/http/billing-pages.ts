/**
 * The local provider's pages as HTML bodies (framed by `sendPage`): the checkout form, with the card's errors or its
 * decline, and the billing portal with the plan, its renewal, the other plans and cancelling.
 */
import { countOf, formatPrice, planById, shownUploadLimit } from '@roomwalk/shared';
import type { Services } from '../services/services.js';
import { escapeHtml as esc } from '../core/html.js';
import type { CardField } from '../services/billing/local-cards.js';
import type { PortalView } from '../services/billing/local-provider.js';
import { catalogueTiers, type PriceTier } from '../services/billing/provider.js';
import { humanDate } from '../services/reports/report-table.js';
import { countActiveTours } from '../services/licenses.js';

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

const FIELD_LABELS: Record<CardField, string> = {
  cardNumber: 'Card number',
  expiry: 'Expiry date (MM / YY)',
  cvc: 'Security code (CVC)',
};

export function checkoutForm(
  tier: PriceTier,
  cancelUrl: string,
  state: {
    values?: { cardNumber?: string; expiry?: string };
    fields?: Partial<Record<CardField, string>>;
    declined?: string;
  } = {},
): string {
  const fields = state.fields ?? {};
  const errors = Object.entries(fields) as Array<[CardField, string]>;
  let summary = '';
  if (state.declined)
    summary = `<div class="alert" role="alert" id="form-error" tabindex="-1" autofocus><p style="margin:0"><strong>Payment declined.</strong> ${esc(state.declined)}</p></div>`;
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

const NOTICES: Record<string, string> = {
  changed: 'Your plan was changed.',
  canceled: 'Your plan is cancelled. It stays until the end of the paid month.',
  resumed: 'Your plan will renew again.',
  unchanged: 'Nothing changed.',
  'unknown-plan': 'That plan is not available.',
};

export async function portalBody(services: Services, view: PortalView, notice: string | undefined): Promise<string> {
  const back = `<p><a href="${esc(view.session.return_url)}">Return to Roomwalk</a></p>`;
  const status = notice && NOTICES[notice] ? `<div class="status" role="status">${esc(NOTICES[notice])}</div>` : '';
  const sub = view.subscription;
  const state = view.state;
  if (!sub || !state)
    return `<h1>Manage your plan</h1>${status}<p>Your company has no active subscription. Choose a plan on the subscriptions page.</p>${back}`;
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
      const warn =
        active > t.upTo
          ? ` Your ${active} active tours are more than ${t.upTo}: the newest ${t.upTo} stay active, the others are deactivated.`
          : '';
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
