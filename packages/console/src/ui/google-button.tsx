/** 'Log in with Google': asks the server for the provider's address and goes there; failures show the Google text. */
import { useState } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { ERROR_TEXTS, safeSessionStorage } from '@roomwalk/shared';
import { AuthError, googleAuthorizationUrl } from '../network/auth-api.js';

/** Where /signup/google finds the human-check token (gToken) for a sign-in that creates an account. */
export const GOOGLE_GTOKEN_KEY = 'roomwalk.google-gtoken';

export function GoogleButton({
  label,
  gToken,
  inviteToken,
  referredBy,
  onError,
}: {
  label: string;
  gToken: string;
  inviteToken?: string | null;
  referredBy?: string | null;
  onError: (message: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      const url = await googleAuthorizationUrl({ inviteToken, referredBy });
      safeSessionStorage().setItem(GOOGLE_GTOKEN_KEY, gToken);
      window.location.assign(url);
    } catch (err) {
      setBusy(false);
      onError((err instanceof AuthError && err.userMessage) || ERROR_TEXTS.googleLoginFailed);
    }
  };
  return (
    <SlButton className="full-width" loading={busy} onClick={() => void start()}>
      <SlIcon slot="prefix" name="google" />
      {label}
    </SlButton>
  );
}
