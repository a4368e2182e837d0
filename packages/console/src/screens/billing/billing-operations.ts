/** Plans, checkout and the billing portal. */
import { graphql } from '../../graphql/graphql.js';

export const SubscriptionsQuery = graphql(`
  query Subscriptions {
    priceTiers { priceId flatAmount unitAmount upTo currencyCode currencySymbol tierName description features }
    me { user { id company { id license { planName quantity } } } }
  }
`);

export const PaymentCheckoutMutation = graphql(`
  mutation PaymentCheckout($input: PaymentCheckoutInput!) {
    paymentCheckout(input: $input) { url message error }
  }
`);

export const BillingPortalSessionMutation = graphql(`
  mutation BillingPortalSession($input: BillingPortalSessionInput!) {
    billingPortalSession(input: $input) { url error }
  }
`);
