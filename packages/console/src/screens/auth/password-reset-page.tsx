/** Set a new password with the token from the reset link; on success go to /login (accounts §2). */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useMutation } from 'urql';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { ERROR_TEXTS, NOTICES, passwordResetFormSchema } from '@roomwalk/shared';
import type { z } from 'zod';
import { UserPasswordResetMutation } from './auth-operations.js';
import { describeFailure, failureCode } from '../../graphql/errors.js';
import { FormField, shouldShow } from '../../ui/form-field.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { AuthLayout } from './auth-layout.js';

type Values = z.input<typeof passwordResetFormSchema>;

export default function PasswordResetPage() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const navigate = useNavigate();
  const notify = useSnackbar();
  const [, reset] = useMutation(UserPasswordResetMutation);
  const { register, handleSubmit, formState } = useForm<Values>({
    resolver: zodResolver(passwordResetFormSchema),
    mode: 'onTouched',
    defaultValues: { newPassword: '', confirmPassword: '' },
  });
  const show = (n: keyof Values) => (shouldShow(n, formState) ? formState.errors[n]?.message : undefined);

  const onSubmit = handleSubmit(async (values) => {
    const result = await reset({ input: { token, newPassword: values.newPassword } });
    if (result.error) {
      const code = failureCode(result.error);
      notify('error', code === 'NOT_AVAILABLE_YET' || code === 'INVALID_TOKEN' ? describeFailure(result.error) : NOTICES.resetFailed);
      return;
    }
    notify('success', NOTICES.successful);
    navigate('/login', { replace: true });
  });

  return (
    <AuthLayout title="Set a New Password">
      {!token ? (
        <p role="alert" className="form-failure">
          {ERROR_TEXTS.invalidToken} <Link to="/password/reset/request">Request a new link</Link>
        </p>
      ) : null}
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Set a new password">
        <FormField label="New Password" type="password" autoComplete="new-password" error={show('newPassword')} {...register('newPassword')} />
        <FormField label="Confirm Password" type="password" autoComplete="new-password" error={show('confirmPassword')} {...register('confirmPassword')} />
        <SlButton type="submit" variant="primary" className="full-width" loading={formState.isSubmitting} disabled={!token}>
          Reset password
        </SlButton>
        <button type="submit" hidden />
      </form>
      <p className="links">
        <Link to="/login">Log in</Link>
      </p>
    </AuthLayout>
  );
}
