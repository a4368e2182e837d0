/** The human check of the lead forms (the live panel's, the lead gate's): Cloudflare Turnstile, loaded on demand. */

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
