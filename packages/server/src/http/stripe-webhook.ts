/**
 * POST /webhooks/stripe: verifies Stripe's signature over the raw body (300 s tolerance, past and future), records the
 * event id once and queues the work, then answers at once. The job reads the final state back from Stripe
 * (services/billing/sync.ts).
 */
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { ERROR_CODES } from '@roomwalk/shared';
import type { Services } from '../services/services.js';
import { recordBillingEvent } from '../services/billing/billing-events.js';
import { customerOfObject } from '../services/billing/stripe-provider.js';
import { refuse } from './refuse.js';

export const STRIPE_SIGNATURE_TOLERANCE_S = 300;
const INVALID_SIGNATURE = 'Invalid Stripe signature.';

/** Events that can change a company's plan; anything else is acknowledged and dropped. */
export const HANDLED_STRIPE_EVENTS: ReadonlySet<string> = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'invoice.paid',
  'invoice.payment_failed',
]);

/** The `t=` timestamp of a Stripe-Signature header (seconds), or +Infinity when it has none. */
export function signedAt(header: string): number {
  const t = /(?:^|,)\s*t=(\d+)/.exec(header)?.[1];
  return t ? Number(t) : Number.POSITIVE_INFINITY;
}

export async function registerStripeWebhook(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    // Signature checks need the exact bytes Stripe signed: in this scope every body stays a raw Buffer.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );

    scope.post('/webhooks/stripe', async (req, reply) => {
      const secret = services.config.STRIPE_WEBHOOK_SECRET;
      if (!services.config.STRIPE_SECRET_KEY || !secret)
        return refuse(reply, ERROR_CODES.NOT_FOUND, 'Stripe is not configured.');
      const signature = req.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(req.body))
        return refuse(reply, ERROR_CODES.BAD_USER_INPUT, 'Missing Stripe signature.');
      let event: Stripe.Event;
      try {
        event = Stripe.webhooks.constructEvent(req.body, signature, secret, STRIPE_SIGNATURE_TOLERANCE_S);
      } catch {
        return refuse(reply, ERROR_CODES.BAD_USER_INPUT, INVALID_SIGNATURE);
      }
      // Stripe's check only bounds the age; a signed timestamp from the future (beyond the same tolerance) is refused
      // too.
      if (signedAt(signature) > Date.now() / 1000 + STRIPE_SIGNATURE_TOLERANCE_S)
        return refuse(reply, ERROR_CODES.BAD_USER_INPUT, INVALID_SIGNATURE);
      if (!HANDLED_STRIPE_EVENTS.has(event.type)) return reply.send({ received: true, handled: false });
      const fresh = await recordBillingEvent(services, {
        id: event.id,
        provider: 'stripe',
        type: event.type,
        customerId: customerOfObject(event.data.object),
        companyId: null,
      });
      return reply.send({ received: true, handled: true, duplicate: !fresh });
    });
  });
}
