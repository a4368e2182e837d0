/** The account page's data: the account query, the payment return, the billing portal, who may edit what, log out. */
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useQuery } from 'urql';
import { isAdmin } from '@roomwalk/shared';
import { readFragment } from '../../graphql/graphql.js';
import { useSession, useSessionStore } from '../../session/session-context.js';
import { basicOrHigher } from '../billing/plan-access.js';
import { useBillingPortal } from '../billing/use-billing-portal.js';
import { usePaymentConfirmation } from '../billing/use-payment-confirmation.js';
import { AccountQuery, LicenseFields } from './account-operations.js';
import { isOfflineLicense, paymentReturnOf } from './account-rules.js';

export function useAccount() {
  const [{ data, fetching, error }, refetch] = useQuery({ query: AccountQuery, requestPolicy: 'cache-and-network' });
  const { roles } = useSession();
  const store = useSessionStore();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [dialog, setDialog] = useState<'profile' | 'company' | null>(null);
  const portal = useBillingPortal();
  const reload = () => refetch({ requestPolicy: 'network-only' });

  const user = data?.me.user;
  const company = user?.company ?? null;
  const license = company?.license ? readFragment(LicenseFields, company.license) : null;
  // Before the first answer, undefined: the payment confirmation waits for the plan's quantity to be known.
  const seenQuantity = data ? (license?.quantity ?? null) : undefined;
  const confirmingPayment = usePaymentConfirmation(pathname === '/profile/success', seenQuantity, reload);

  // Leave first, so the private-route guard does not remember /account as the place to return to.
  const logout = () => {
    navigate('/login', { replace: true });
    store.logout('user');
  };

  return {
    fetching,
    error,
    reload,
    user,
    profile: user?.profile ?? null,
    company,
    license,
    admin: isAdmin(roles) || user?.role === 'ADMIN',
    offline: isOfflineLicense(license?.planName),
    canEditLogo: basicOrHigher(roles, license?.planName),
    paymentReturn: paymentReturnOf(pathname),
    confirmingPayment,
    portal,
    dialog,
    setDialog,
    logout,
    go: navigate,
  };
}
