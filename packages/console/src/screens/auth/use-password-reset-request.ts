/** 'Reset Your Password': the form, and sending the reset email for a lower-cased address. */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from 'urql';
import { NOTICES, passwordResetRequestSchema } from '@roomwalk/shared';
import type { z } from 'zod';
import { describeFailure, isNotAvailableYet } from '../../graphql/errors.js';
import { shouldShow } from '../../ui/form-field.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { UserRequestPasswordResetMutation } from './auth-operations.js';

type Values = z.input<typeof passwordResetRequestSchema>;

export function usePasswordResetRequest() {
  const [, request] = useMutation(UserRequestPasswordResetMutation);
  const notify = useSnackbar();
  const [sent, setSent] = useState(false);
  const { register, handleSubmit, formState } = useForm<Values>({
    resolver: zodResolver(passwordResetRequestSchema),
    mode: 'onTouched',
    defaultValues: { email: '' },
  });

  const submit = handleSubmit(async (raw) => {
    const { email } = passwordResetRequestSchema.parse(raw);
    const result = await request({ input: { email } });
    if (result.error || !result.data?.userRequestPasswordReset.success) {
      notify('error', isNotAvailableYet(result.error) ? describeFailure(result.error) : NOTICES.resetEmailFailed);
      return;
    }
    setSent(true);
    notify('success', NOTICES.resetEmailSent);
  });

  return {
    register,
    submit,
    sent,
    submitting: formState.isSubmitting,
    errorOf: (n: keyof Values) => (shouldShow(n, formState) ? formState.errors[n]?.message : undefined),
  };
}
