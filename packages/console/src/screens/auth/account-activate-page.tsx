/** /account/activate?token=: activates the account on load (accounts §2). */
import { Link, useSearchParams } from 'react-router-dom';
import { useMutation } from 'urql';
import { ERROR_CODES, ERROR_TEXTS, TIMINGS_MS, errorCodeOf } from '@roomwalk/shared';
import { UserActivationMutation } from './auth-operations.js';
import { RunOnceStatus, ReturnToLogin } from './run-once-status.js';

export default function AccountActivatePage() {
  const [search] = useSearchParams();
  const [, activate] = useMutation(UserActivationMutation);
  const token = search.get('token') ?? '';
  return (
    <RunOnceStatus
      title="Account activation"
      waiting={ERROR_TEXTS.activationWaiting}
      success={{ title: ERROR_TEXTS.activationSuccessTitle, text: ERROR_TEXTS.activationSuccess }}
      failure={{ title: ERROR_TEXTS.activationFailedTitle, text: ERROR_TEXTS.activationFailed }}
      redirectMs={TIMINGS_MS.activationRedirect}
      run={async () => {
        if (!token) return false;
        const r = await activate({ token });
        if (r.error?.graphQLErrors.some((e) => errorCodeOf(e) === ERROR_CODES.ACCOUNT_ALREADY_ACTIVE)) {
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
        if (r.error) console.error('Activation failed', r.error);
        return !r.error && !!r.data?.userActivation.id;
      }}
      footer={<ReturnToLogin />}
    />
  );
}
