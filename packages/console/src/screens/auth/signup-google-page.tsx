/** /signup/google: finishes sign-in with the identity provider's code and state, then goes to /. */
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ERROR_TEXTS, LOGIN_METHODS, safeSessionStorage } from '@roomwalk/shared';
import { googleLogin } from '../../network/auth-api.js';
import { useSessionStore } from '../../session/session-context.js';
import { Loading } from '../../ui/page.js';
import { AuthLayout } from './auth-layout.js';
import { GOOGLE_GTOKEN_KEY } from '../../ui/google-button.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { DELETION_CANCELLED_NOTICE } from './auth-rules.js';

export type GoogleLoginStatus = 'idle' | 'loading' | 'success' | 'error';

export default function SignupGooglePage() {
  const location = useLocation();
  const navigate = useNavigate();
  const store = useSessionStore();
  const [status, setStatus] = useState<GoogleLoginStatus>('idle');
  const started = useRef(false);
  const notify = useSnackbar();

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const q = new URLSearchParams(location.search);
    const code = q.get('code');
    const state = q.get('state');
    if (!code || !state) {
      setStatus('error');
      return;
    }
    setStatus('loading');
    const gToken = q.get('gToken') ?? safeSessionStorage().getItem(GOOGLE_GTOKEN_KEY);
    safeSessionStorage().removeItem(GOOGLE_GTOKEN_KEY);
    googleLogin(code, state, gToken)
      .then(({ token, deletionCancelled }) => {
        if (!store.login(token, LOGIN_METHODS.google)) throw new Error('invalid token');
        setStatus('success');
        if (deletionCancelled) notify('info', DELETION_CANCELLED_NOTICE);
        navigate('/', { replace: true });
      })
      .catch(() => setStatus('error'));
  }, [location.search, navigate, store, notify]);

  return (
    <AuthLayout title="Sign in with Google">
      {status === 'error' ? (
        <div role="alert">
          <p>{ERROR_TEXTS.googleLoginFailed}</p>
          <Link to="/login">Return to Login</Link>
        </div>
      ) : (
        <Loading label="Signing you in" />
      )}
    </AuthLayout>
  );
}
