/**
 * The "Not Available" gate of a screen the user's plan or role does not include: a page with a dialog that says why,
 * Close back to where they came from, and Upgrade to the plans when a higher plan would open it.
 */
import { useNavigate } from 'react-router-dom';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { Dialog } from './dialog.js';
import { Page } from './page.js';

export interface PlanGateProps {
  /** The screen's own title, so the page reads the same behind the dialog. */
  title: string;
  /** Where Close (and the page's back action) goes. */
  back: string;
  /** Why the screen is closed, in the user's words. */
  text: string;
  /** Offer Upgrade: false where no plan would help (an admins-only screen seen by a standard member). */
  upgrade?: boolean;
  className?: string;
  testId?: string;
}

export function PlanGate({ title, back, text, upgrade = true, className, testId }: PlanGateProps) {
  const navigate = useNavigate();
  return (
    <Page title={title} back={back} className={className}>
      <Dialog
        open
        label="Not Available"
        onClose={() => navigate(back)}
        footer={
          <>
            <SlButton onClick={() => navigate(back)}>Close</SlButton>
            {upgrade ? (
              <SlButton variant="primary" onClick={() => navigate('/account/subscriptions')}>
                Upgrade
              </SlButton>
            ) : null}
          </>
        }
      >
        <p data-testid={testId}>{text}</p>
      </Dialog>
    </Page>
  );
}
