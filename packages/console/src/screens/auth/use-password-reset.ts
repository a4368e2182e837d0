/** Setting a new password with the reset link's token: the form, its submission and where it leads (/login). */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router-dom';
import { useMutation } from 'urql';
import { NOTICES, passwordResetFormSchema } from '@roomwalk/shared';
import type { z } from 'zod';
import { describeFailure, failureCode } from '../../graphql/errors.js';
import { shouldShow } from '../../ui/form-field.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { UserPasswordResetMutation } from './auth-operations.js';
import { resetFailureSaysWhy } from './auth-rules.js';

type Values = z.input<typeof passwordResetFormSchema>;

export function usePasswordReset(token: string) {
  const navigate = useNavigate();
  const notify = useSnackbar();
  const [, reset] = useMutation(UserPasswordResetMutation);
  const { register, handleSubmit, formState } = useForm<Values>({
    resolver: zodResolver(passwordResetFormSchema),
    mode: 'onTouched',
    defaultValues: { newPassword: '', confirmPassword: '' },
  });

  const submit = handleSubmit(async (values) => {
    const result = await reset({ input: { token, newPassword: values.newPassword } });
    if (result.error) {
      notify(
        'error',
        resetFailureSaysWhy(failureCode(result.error)) ? describeFailure(result.error) : NOTICES.resetFailed,
      );
      return;
    }
    notify('success', NOTICES.successful);
    navigate('/login', { replace: true });
  });

  return {
    register,
    submit,
    submitting: formState.isSubmitting,
    /** A field's error once the form says it may be shown. */
    errorOf: (n: keyof Values) => (shouldShow(n, formState) ? formState.errors[n]?.message : undefined),
  };
}
