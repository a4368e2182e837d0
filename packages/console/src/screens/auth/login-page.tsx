/** Login: email and password, the human check, email and Google methods with the 'Used Last' badge. */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlBadge from '@shoelace-style/shoelace/dist/react/badge/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import SlAlert from '@shoelace-style/shoelace/dist/react/alert/index.js';
import { ERROR_TEXTS, LOGIN_METHODS, loginSchema } from '@roomwalk/shared';
import type { z } from 'zod';
import { AuthError, passwordLogin } from '../../network/auth-api.js';
import { GoogleButton, IfGoogleConfigured } from '../../ui/google-button.js';
import { useSession, useSessionStore } from '../../session/session-context.js';
import { returnPath } from '../../routes/guards.js';
import { FormField, shouldShow } from '../../ui/form-field.js';
import { HumanCheck } from '../../ui/human-check.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { DELETION_CANCELLED_NOTICE } from './auth-rules.js';
import { AuthFailureDialog } from './auth-failure-dialog.js';
import { AuthLayout } from './auth-layout.js';

type LoginValues = z.input<typeof loginSchema>;
export type LoginStatus = 'idle' | 'loading' | 'success' | 'error';

function UsedLast({ show }: { show: boolean }) {
  return show ? (
    <SlBadge className="used-last" variant="primary" pill>
      Used Last
    </SlBadge>
  ) : null;
}

export default function LoginPage() {
  const store = useSessionStore();
  const { requiresReauth } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [status, setStatus] = useState<LoginStatus>('idle');
  const [failure, setFailure] = useState<string | null>(null);
  const [turnstileToken, setTurnstileToken] = useState('');
  const notify = useSnackbar();
  const prev = store.prevLoginMethod();
  const { register, handleSubmit, formState } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    mode: 'onTouched',
    defaultValues: { username: '', password: '' },
  });
  const show = (n: keyof LoginValues) => (shouldShow(n, formState) ? formState.errors[n]?.message : undefined);

  const onSubmit = handleSubmit(async (raw) => {
    const values = loginSchema.parse(raw);
    setStatus('loading');
    try {
      const { token, deletionCancelled } = await passwordLogin(values.username, values.password, turnstileToken);
      if (!store.login(token, LOGIN_METHODS.roomwalk)) throw new AuthError(undefined, 200);
      setStatus('success');
      if (deletionCancelled) notify('info', DELETION_CANCELLED_NOTICE);
      navigate(returnPath(location.state), { replace: true });
    } catch (err) {
      setStatus('error');
      setFailure((err instanceof AuthError && err.userMessage) || ERROR_TEXTS.loginFailed);
    }
  });

  return (
    <AuthLayout title="Log in">
      {requiresReauth ? (
        <SlAlert open variant="warning" className="section">
          {ERROR_TEXTS.notAuthenticated}
        </SlAlert>
      ) : null}
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Log in">
        <FormField
          label="Email"
          type="email"
          autoComplete="username"
          error={show('username')}
          {...register('username')}
        />
        <FormField
          label="Password"
          type="password"
          autoComplete="current-password"
          error={show('password')}
          {...register('password')}
        />
        <HumanCheck onToken={setTurnstileToken} />
        <div className="method">
          <UsedLast show={prev === LOGIN_METHODS.roomwalk} />
          <SlButton
            type="submit"
            variant="primary"
            className="full-width"
            loading={status === 'loading'}
            disabled={!turnstileToken}
          >
            <SlIcon slot="prefix" name="envelope" />
            Log in with email
          </SlButton>
        </div>
        <button type="submit" hidden />
      </form>
      {/* Only when Google sign-in is configured on the server. */}
      <IfGoogleConfigured>
        {/* biome-ignore lint/a11y/useSemanticElements: an <hr> cannot hold the "or" text this divider shows */}
        <div className="divider-or" role="separator">
          or
        </div>
        <div className="method">
          <UsedLast show={prev === LOGIN_METHODS.google} />
          <GoogleButton label="Log in with Google" gToken={turnstileToken} onError={setFailure} />
        </div>
      </IfGoogleConfigured>
      <nav className="links" aria-label="Account links">
        <span>
          Don&apos;t have an account? <Link to="/signup">Sign up here.</Link>
        </span>
        <Link to="/password/reset/request">Forgot password?</Link>
      </nav>
      <AuthFailureDialog message={failure} onClose={() => setFailure(null)} />
    </AuthLayout>
  );
}
