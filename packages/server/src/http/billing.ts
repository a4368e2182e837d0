/**
 * The local provider's pages (used when Stripe is not configured): a checkout page that takes a test card and a
 * billing portal to change or cancel the plan. Self-contained HTML (no script, inline styles), native form controls
 * with labels, so every step works by keyboard and with a screen reader.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/services.js';
import { escapeHtml as esc } from '../core/html.js';
import { sendPage as send } from './html-page.js';
import { routeRateLimit } from './refuse.js';
import { checkCard, LOCAL_DECLINE_CARDS } from '../services/billing/local-cards.js';
import {
  applyPortalAction,
  completeLocalCheckout,
  findCheckoutSession,
  findPortalSession,
  type CheckoutSessionView,
  type PortalAction,
  type PortalView,
} from '../services/billing/local-provider.js';
import type { PriceTier } from '../services/billing/provider.js';
import { checkoutForm, portalBody } from './billing-pages.js';
import { serverNow } from '../core/clock.js';

/** The pages that say why a link cannot be used: status, title, text. */
const MESSAGES = {
  stripeOnly: [404, 'Not found', 'Payments go through Stripe on this server.'],
  checkoutNotFound: [404, 'Checkout not found', 'This checkout link is not valid. Choose a plan again.'],
  checkoutExpired: [410, 'Checkout expired', 'This checkout link has expired. Choose a plan again.'],
  portalExpired: [410, 'Link expired', 'This billing link has expired. Open Manage on your account page again.'],
  portalNotValid: [404, 'Link not valid', 'This billing link is not valid. Open Manage on your account page again.'],
} as const satisfies Record<string, Message>;
type Message = readonly [status: number, title: string, text: string];

function messagePage(reply: FastifyReply, services: Services, [status, title, text]: Message) {
  return send(
    reply,
    services,
    status,
    title,
    `<h1>${esc(title)}</h1><p>${esc(text)}</p><p><a href="${esc(`${services.config.publicUrl}/account/subscriptions`)}">Back to plans</a></p>`,
  );
}

type SessionRoute = { Params: { sessionId: string }; Body: Record<string, string> | undefined };
type PortalRoute = { Params: { sessionId: string }; Querystring: { notice?: string } };
type SessionRequest = FastifyRequest<SessionRoute>;
type PortalRequest = FastifyRequest<PortalRoute>;

export async function registerBillingRoutes(app: FastifyInstance, services: Services): Promise<void> {
  // Card attempts per client IP (the local page takes no real cards, but it should not invite guessing either).
  const attemptLimit = routeRateLimit(services, 'billingCardAttempt');
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
    scope.get<SessionRoute>('/billing/checkout/:sessionId', (req, reply) => showCheckout(services, req, reply));
    scope.post<SessionRoute>('/billing/checkout/:sessionId', { preHandler: attemptLimit }, (req, reply) =>
      payCheckout(services, req, reply),
    );
    scope.get<PortalRoute>('/billing/portal/:sessionId', (req, reply) => showPortal(services, req, reply));
    scope.post<SessionRoute>('/billing/portal/:sessionId', (req, reply) => actInPortal(services, req, reply));
  });
}

/** What a link answers when its session cannot be used: a page saying why, or a paid checkout's success page. */
type Answer = { message: Message } | { redirect: string };

function answer(reply: FastifyReply, services: Services, a: Answer) {
  return 'redirect' in a ? reply.redirect(a.redirect, 303) : messagePage(reply, services, a.message);
}

/** The checkout session the link names while it can still be paid (not with Stripe configured, known, not expired). */
async function openCheckout(
  services: Services,
  sessionId: string,
): Promise<{ session: CheckoutSessionView & { tier: PriceTier } } | Answer> {
  if (services.config.STRIPE_SECRET_KEY) return { message: MESSAGES.stripeOnly };
  const s = await findCheckoutSession(services, sessionId);
  if (!s?.tier) return { message: MESSAGES.checkoutNotFound };
  if (s.status === 'complete') return { redirect: s.success_url };
  if (s.expired) return { message: MESSAGES.checkoutExpired };
  return { session: { ...s, tier: s.tier } };
}

async function showCheckout(services: Services, req: SessionRequest, reply: FastifyReply) {
  const open = await openCheckout(services, req.params.sessionId);
  if (!('session' in open)) return answer(reply, services, open);
  const s = open.session;
  return send(reply, services, 200, `Subscribe to ${s.tier.tierName}`, checkoutForm(s.tier, s.cancel_url));
}

/** The test card posted: the form again with its errors (400) or the decline (402), else the plan starts. */
async function payCheckout(services: Services, req: SessionRequest, reply: FastifyReply) {
  const open = await openCheckout(services, req.params.sessionId);
  if (!('session' in open)) return answer(reply, services, open);
  const s = open.session;
  const body = req.body && typeof req.body === 'object' ? req.body : {};
  const values = {
    cardNumber: String(body.cardNumber ?? '').slice(0, 40),
    expiry: String(body.expiry ?? '').slice(0, 10),
    cvc: String(body.cvc ?? '').slice(0, 10),
  };
  const check = checkCard(values, serverNow(services));
  const title = `Subscribe to ${s.tier.tierName}`;
  if (!check.ok && check.kind === 'invalid')
    return send(reply, services, 400, title, checkoutForm(s.tier, s.cancel_url, { values, fields: check.fields }));
  if (!check.ok)
    return send(reply, services, 402, title, checkoutForm(s.tier, s.cancel_url, { values, declined: check.message }));
  const outcome = await completeLocalCheckout(services, s.id, check.last4);
  if (outcome === 'expired') return messagePage(reply, services, MESSAGES.checkoutExpired);
  if (outcome === 'not-found') return messagePage(reply, services, MESSAGES.checkoutNotFound);
  return reply.redirect(s.success_url, 303);
}

/** The portal session the link names while it lasts (not with Stripe configured). */
async function openPortal(services: Services, sessionId: string): Promise<{ view: PortalView } | Answer> {
  if (services.config.STRIPE_SECRET_KEY) return { message: MESSAGES.stripeOnly };
  const view = await findPortalSession(services, sessionId);
  if (view === 'expired') return { message: MESSAGES.portalExpired };
  if (!view) return { message: MESSAGES.portalNotValid };
  return { view };
}

async function showPortal(services: Services, req: PortalRequest, reply: FastifyReply) {
  const open = await openPortal(services, req.params.sessionId);
  if (!('view' in open)) return answer(reply, services, open);
  return send(reply, services, 200, 'Manage your plan', await portalBody(services, open.view, req.query.notice));
}

/** Change, cancel or resume the plan, then the portal again with a notice of what happened. */
async function actInPortal(services: Services, req: SessionRequest, reply: FastifyReply) {
  const open = await openPortal(services, req.params.sessionId);
  if (!('view' in open)) return answer(reply, services, open);
  const view = open.view;
  const body = req.body && typeof req.body === 'object' ? req.body : {};
  let act: PortalAction | null = null;
  if (body.action === 'change' && typeof body.priceId === 'string')
    act = { action: 'change', priceId: body.priceId.slice(0, 100) };
  else if (body.action === 'cancel') act = { action: 'cancel' };
  else if (body.action === 'resume') act = { action: 'resume' };
  const outcome = act ? await applyPortalAction(services, view, act) : 'unchanged';
  return reply.redirect(`/billing/portal/${encodeURIComponent(view.session.id)}?notice=${outcome}`, 303);
}

/** The decline numbers the local checkout knows (docs and tests). */
export const LOCAL_DECLINE_NUMBERS = Object.keys(LOCAL_DECLINE_CARDS);
