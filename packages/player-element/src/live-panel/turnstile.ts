/**
 * The human check of the lead forms (the live panel's, the lead gate's) and of the password screen after many wrong
 * guesses: Cloudflare Turnstile, loaded on demand.
 */
import { DEV_TURNSTILE_TOKEN } from '@roomwalk/shared/constants';

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
}

export function siteKey(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="roomwalk-turnstile-site-key"]')?.content.trim() ?? '';
}

let turnstileLoad: Promise<TurnstileApi> | null = null;
export function loadTurnstile(): Promise<TurnstileApi> {
  const w = window as unknown as { turnstile?: TurnstileApi };
  turnstileLoad ??= new Promise((resolve, reject) => {
    if (w.turnstile) return resolve(w.turnstile);
    const s = document.createElement('script');
    s.src = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
    s.async = true;
    s.onload = () => (w.turnstile ? resolve(w.turnstile) : reject(new Error('Turnstile did not load')));
    s.onerror = () => reject(new Error('Turnstile did not load'));
    document.head.append(s);
  });
  return turnstileLoad;
}

/** The Turnstile token for the form (the development token when no site key is configured). */
export async function humanCheck(form: HTMLFormElement): Promise<() => string> {
  const key = siteKey();
  if (!key) return () => DEV_TURNSTILE_TOKEN;
  let token = '';
  const box = form.querySelector<HTMLElement>('.turnstile');
  if (box) {
    const t = await loadTurnstile();
    t.render(box, {
      sitekey: key,
      callback: (x) => (token = x),
      'expired-callback': () => (token = ''),
      'error-callback': () => (token = ''),
    });
  }
  return () => token;
}
