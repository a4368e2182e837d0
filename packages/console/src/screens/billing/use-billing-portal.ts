/** Opens the card provider's billing portal: a url replaces the page; an error is reported. */
import { useCallback, useState } from 'react';
import { useMutation } from 'urql';
import { BillingPortalSessionMutation } from './billing-operations.js';
import { describeFailure } from '../../graphql/errors.js';
import { useSnackbar } from '../../ui/snackbar.js';

const BILLING_RETURN_STUB = 'account/subscriptions';

export function useBillingPortal(navigateTo: (url: string) => void = (url) => window.location.replace(url)) {
  const [, open] = useMutation(BillingPortalSessionMutation);
  const notify = useSnackbar();
  const [busy, setBusy] = useState(false);
  const openPortal = useCallback(async () => {
    setBusy(true);
    const r = await open({ input: { returnStub: BILLING_RETURN_STUB } });
    setBusy(false);
    const answer = r.data?.billingPortalSession;
    if (answer?.url) return navigateTo(answer.url);
    const message = answer?.error ?? describeFailure(r.error);
    console.error('Billing portal failed', r.error ?? answer?.error);
    notify('error', message);
  }, [open, notify, navigateTo]);
  return { openPortal, busy };
}
