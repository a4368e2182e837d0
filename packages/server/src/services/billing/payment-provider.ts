/** The configured payment provider (Stripe with STRIPE_SECRET_KEY, else the local one), built once per app. */
import type { Services } from '../services.js';
import type { PaymentProvider } from './provider.js';

const providers = new WeakMap<Services, PaymentProvider>();

/** The configured provider, built once per app. */
export async function paymentProvider(services: Services): Promise<PaymentProvider> {
  let p = providers.get(services);
  if (!p) {
    if (services.config.STRIPE_SECRET_KEY) {
      const { createStripeProvider } = await import('./stripe-provider.js');
      p = createStripeProvider(services);
    } else {
      const { createLocalProvider } = await import('./local-provider.js');
      p = createLocalProvider(services);
    }
    providers.set(services, p);
  }
  return p;
}
