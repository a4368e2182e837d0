/** /account/activate?token=: activates the account on load. */
import { Link, useSearchParams } from 'react-router-dom';
import { ERROR_TEXTS, TIMINGS_MS } from '@roomwalk/shared';
import { RunOnceStatus, ReturnToLogin } from './run-once-status.js';
import { useAccountActivate } from './use-account-activate.js';

export default function AccountActivatePage() {
  const [search] = useSearchParams();
  const activate = useAccountActivate(search.get('token') ?? '');
  return (
    <RunOnceStatus
      title="Account activation"
      waiting={ERROR_TEXTS.activationWaiting}
      success={{ title: ERROR_TEXTS.activationSuccessTitle, text: ERROR_TEXTS.activationSuccess }}
      failure={{ title: ERROR_TEXTS.activationFailedTitle, text: ERROR_TEXTS.activationFailed }}
      redirectMs={TIMINGS_MS.activationRedirect}
      run={async () => {
        const outcome = await activate();
        if (outcome === 'already-active') {
          // A second click on the link: the account is fine, the user only needs to log in.
          return {
            title: ERROR_TEXTS.activationAlreadyTitle,
            text: ERROR_TEXTS.accountAlreadyActive,
            action: (
              <Link className="status-action" to="/login">
                Log in
              </Link>
            ),
          };
        }
        return outcome === 'activated';
      }}
      footer={<ReturnToLogin />}
    />
  );
}
