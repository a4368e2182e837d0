/** The alert's "Re-send activation email": its four states, and the reason when the server cannot send yet. */
import { useState } from 'react';
import { useMutation } from 'urql';
import { describeFailure, isNotAvailableYet } from '../../graphql/errors.js';
import { UserActivationEmailResendMutation } from './account-operations.js';

export type ResendState = 'idle' | 'sending' | 'success' | 'error';

export function useActivationResend(email: string) {
  const [state, setState] = useState<ResendState>('idle');
  const [detail, setDetail] = useState<string | null>(null);
  const [, send] = useMutation(UserActivationEmailResendMutation);
  const resend = async () => {
    setState('sending');
    setDetail(null);
    const r = await send({ email });
    const ok = !r.error && !!r.data?.userActivationEmailResend.success;
    setState(ok ? 'success' : 'error');
    if (isNotAvailableYet(r.error)) setDetail(describeFailure(r.error));
  };
  return { state, detail, resend };
}
