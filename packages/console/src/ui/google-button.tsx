/** 'Log in with Google': asks the server for the provider's address and goes there; failures show the Google text. */
import { useEffect, useState, type ReactNode } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { ERROR_TEXTS, safeSessionStorage } from '@roomwalk/shared';
import { AuthError, googleAuthorizationUrl } from '../network/auth-api.js';
import { serverUrl } from '../config/page-config.js';

let googleStatus: Promise<boolean> | null = null;
/** Asks the server once per page load whether Google sign-in is configured; unknown (an error) counts as not. */
function googleConfigured(fetchImpl: typeof fetch = fetch): Promise<boolean> {
  googleStatus ??= fetchImpl(`${serverUrl()}/auth/google/status`, { headers: { Accept: 'application/json' } })
    .then(async (r) => r.ok && ((await r.json()) as { configured?: unknown }).configured === true)
    .catch(() => false);
  return googleStatus;
}
export const resetGoogleStatus = () => {
  googleStatus = null;
};

/** Renders its children (the 'or' divider and the Google button) only when Google sign-in is configured. */
export function IfGoogleConfigured({ children }: { children: ReactNode }) {
  const [on, setOn] = useState(false);
  useEffect(() => {
    let live = true;
    void googleConfigured().then((v) => live && setOn(v));
    return () => {
      live = false;
    };
  }, []);
  return on ? <>{children}</> : null;
}

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
