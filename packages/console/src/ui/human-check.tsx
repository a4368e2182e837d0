/** The human check: Turnstile when the page names a site key, else the development dummy token. */
import { useEffect, useRef } from 'react';
import { DEV_TURNSTILE_TOKEN } from '@roomwalk/shared';
import { turnstileSiteKey } from '../config/page-config.js';

interface TurnstileApi {
  render(
    el: HTMLElement,
    opts: {
      sitekey: string;
      callback: (t: string) => void;
      'expired-callback': () => void;
      'error-callback': () => void;
    },
  ): string;
  remove(id: string): void;
}
declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

const SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
let scriptLoad: Promise<TurnstileApi> | null = null;
function loadTurnstile(): Promise<TurnstileApi> {
  scriptLoad ??= new Promise((resolve, reject) => {
    if (window.turnstile) return resolve(window.turnstile);
    const s = document.createElement('script');
    s.src = SCRIPT_URL;
    s.async = true;
    s.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error('Turnstile did not load')));
    s.onerror = () => reject(new Error('Turnstile did not load'));
    document.head.append(s);
  });
  return scriptLoad;
}

export function HumanCheck({ onToken }: { onToken: (token: string) => void }) {
  const siteKey = turnstileSiteKey();
  const box = useRef<HTMLDivElement>(null);
  const callback = useRef(onToken);
  callback.current = onToken;

  useEffect(() => {
    if (!siteKey) {
      callback.current(DEV_TURNSTILE_TOKEN);
      return;
    }
    let id: string | null = null;
    let cancelled = false;
    void loadTurnstile()
      .then((t) => {
        if (cancelled || !box.current) return;
        id = t.render(box.current, {
          sitekey: siteKey,
          callback: (token) => callback.current(token),
          'expired-callback': () => callback.current(''),
          'error-callback': () => callback.current(''),
        });
      })
      .catch((e: unknown) => console.error(e));
    return () => {
      cancelled = true;
      if (id && window.turnstile) window.turnstile.remove(id);
    };
  }, [siteKey]);

  if (!siteKey) {
    return (
      <p className="human-check human-check-dev" data-testid="human-check">
        Human verification is skipped in development.
      </p>
    );
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: the Turnstile widget draws its own controls inside; a fieldset would add a border and a legend
    <div ref={box} className="human-check" data-testid="human-check" aria-label="Human verification" role="group" />
  );
}
