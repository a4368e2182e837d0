/** Analytics start only after consent and only when the page configures a token. */
declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

let started = false;

/**
 * Loads the analytics tag for the token; does nothing without one or when already started. Returns whether it started.
 */
export function startAnalytics(token: string): boolean {
  if (!token || started) return false;
  started = true;
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push(['js', new Date()], ['config', token]);
  const s = document.createElement('script');
  s.async = true;
  s.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(token)}`;
  document.head.append(s);
  return true;
}
