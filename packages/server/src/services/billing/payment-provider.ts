/** The configured payment provider (Stripe with STRIPE_SECRET_KEY, else the local one), built once per app. */
import type { Services } from '../services.js';
import type { PaymentProvider } from './provider.js';

/** The configured provider, built once per app (kept in `services.paymentProvider`). */
export function paymentProvider(services: Services): Promise<PaymentProvider> {
  services.paymentProvider ??= (async () => {
    if (services.config.STRIPE_SECRET_KEY) {
      const { createStripeProvider } = await import('./stripe-provider.js');
      return createStripeProvider(services);
    }
    const { createLocalProvider } = await import('./local-provider.js');
    return createLocalProvider(services);
  })();
  return services.paymentProvider;
}
