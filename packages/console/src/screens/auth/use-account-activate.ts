/** Activation: runs userActivation with the link's token (once, when the page opens) and says how it ended. */
import { useMutation } from 'urql';
import { errorCodeOf } from '@roomwalk/shared';
import { UserActivationMutation } from './auth-operations.js';
import { activationOutcome, type ActivationOutcome } from './auth-rules.js';

export function useAccountActivate(token: string) {
  const [, activate] = useMutation(UserActivationMutation);
  return async (): Promise<ActivationOutcome> => {
    if (!token) return 'failed';
    const r = await activate({ token });
    if (r.error) console.error('Activation failed', r.error);
    return activationOutcome(r.error?.graphQLErrors.map(errorCodeOf) ?? [], r.error ? null : r.data?.userActivation.id);
  };
}
