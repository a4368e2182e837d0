/** 'Reset Your Password': sends the reset email for a lower-cased address. */
import { Link } from 'react-router-dom';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { NOTICES } from '@roomwalk/shared';
import { FormField } from '../../ui/form-field.js';
import { AuthLayout } from './auth-layout.js';
import { usePasswordResetRequest } from './use-password-reset-request.js';

export default function PasswordResetRequestPage() {
  const { register, submit, sent, submitting, errorOf } = usePasswordResetRequest();

  return (
    <AuthLayout title="Reset Your Password">
      {sent ? (
        <p role="status">{NOTICES.resetEmailSent}. Follow the link in the email to choose a new password.</p>
      ) : null}
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Reset your password">
        <FormField label="Email" type="email" autoComplete="email" error={errorOf('email')} {...register('email')} />
        <SlButton type="submit" variant="primary" className="full-width" loading={submitting}>
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
