/**
 * What a checkout answered instead of going to pay: 'Manage your subscription' (with the billing portal) or 'Failed to
 * activate plan'.
 */
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { manageSubscriptionUrl } from '../../config/page-config.js';
import { Dialog } from '../../ui/dialog.js';
import { useBillingPortal } from './use-billing-portal.js';
import type { CheckoutAnswer } from './use-subscriptions.js';

export function CheckoutAnswerDialogs({ answer, onClose }: { answer: CheckoutAnswer; onClose: () => void }) {
  const portal = useBillingPortal();
  const manageLink = manageSubscriptionUrl();
  return (
    <>
      <Dialog
        open={answer?.kind === 'manage'}
        label="Manage your subscription"
        onClose={onClose}
        footer={
          <>
            <SlButton onClick={onClose}>Close</SlButton>
            {manageLink ? (
              <SlButton variant="primary" href={manageLink}>
                Manage Subscription
              </SlButton>
            ) : (
              <SlButton variant="primary" loading={portal.busy} onClick={() => void portal.openPortal()}>
                Manage Subscription
              </SlButton>
            )}
          </>
        }
      >
        <p>{answer?.message}</p>
      </Dialog>
      <Dialog
        open={answer?.kind === 'failed'}
        label="Failed to activate plan"
        onClose={onClose}
        footer={
          <SlButton variant="primary" onClick={onClose}>
            Close
          </SlButton>
        }
      >
        <p>{answer?.message}</p>
      </Dialog>
    </>
  );
}
