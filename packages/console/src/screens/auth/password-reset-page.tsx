/** Set a new password with the token from the reset link; on success go to /login. */
import { Link, useSearchParams } from 'react-router-dom';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { ERROR_TEXTS } from '@roomwalk/shared';
import { FormField } from '../../ui/form-field.js';
import { AuthLayout } from './auth-layout.js';
import { usePasswordReset } from './use-password-reset.js';

export default function PasswordResetPage() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const { register, submit, submitting, errorOf } = usePasswordReset(token);

  return (
    <AuthLayout title="Set a New Password">
      {!token ? (
        <p role="alert" className="form-failure">
          {ERROR_TEXTS.invalidToken} <Link to="/password/reset/request">Request a new link</Link>
        </p>
      ) : null}
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Set a new password">
        <FormField
          label="New Password"
          type="password"
          autoComplete="new-password"
          error={errorOf('newPassword')}
          {...register('newPassword')}
        />
        <FormField
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          error={errorOf('confirmPassword')}
          {...register('confirmPassword')}
        />
        <SlButton type="submit" variant="primary" className="full-width" loading={submitting} disabled={!token}>
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
