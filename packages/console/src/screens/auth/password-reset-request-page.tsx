/** 'Reset Your Password' (accounts §2): sends the reset email for a lower-cased address. */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router-dom';
import { useMutation } from 'urql';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { NOTICES, passwordResetRequestSchema } from '@roomwalk/shared';
import type { z } from 'zod';
import { UserRequestPasswordResetMutation } from './auth-operations.js';
import { isNotAvailableYet, describeFailure } from '../../graphql/errors.js';
import { FormField, shouldShow } from '../../ui/form-field.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { AuthLayout } from './auth-layout.js';

type Values = z.input<typeof passwordResetRequestSchema>;

export default function PasswordResetRequestPage() {
  const [, request] = useMutation(UserRequestPasswordResetMutation);
  const notify = useSnackbar();
  const [sent, setSent] = useState(false);
  const { register, handleSubmit, formState } = useForm<Values>({ resolver: zodResolver(passwordResetRequestSchema), mode: 'onTouched', defaultValues: { email: '' } });
  const show = (n: keyof Values) => (shouldShow(n, formState) ? formState.errors[n]?.message : undefined);

  const onSubmit = handleSubmit(async (raw) => {
    const { email } = passwordResetRequestSchema.parse(raw);
    const result = await request({ input: { email } });
    if (result.error || !result.data?.userRequestPasswordReset.success) {
      notify('error', isNotAvailableYet(result.error) ? describeFailure(result.error) : NOTICES.resetEmailFailed);
      return;
    }
    setSent(true);
    notify('success', NOTICES.resetEmailSent);
  });

  return (
    <AuthLayout title="Reset Your Password">
      {sent ? <p role="status">{NOTICES.resetEmailSent}. Follow the link in the email to choose a new password.</p> : null}
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Reset your password">
        <FormField label="Email" type="email" autoComplete="email" error={show('email')} {...register('email')} />
        <SlButton type="submit" variant="primary" className="full-width" loading={formState.isSubmitting}>
          Send reset link
        </SlButton>
        <button type="submit" hidden />
      </form>
      <p className="links">
        <span>
          Remembered your password? <Link to="/login">Log in</Link>
        </span>
      </p>
    </AuthLayout>
  );
}
