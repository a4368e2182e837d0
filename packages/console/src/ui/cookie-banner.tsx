/**
 * Cookie banner: shown at the bottom while there is no stored choice. While shown, its height is
 * published as `--rw-cookie-banner-height` on the root element, so full-screen pages end above it rather than under it.
 * Never on a tour a visitor watches (the public player routes, and any page inside another site's frame): a tour sets
 * no cookie and stores nothing that needs consent (docs/embedding.md "What an embedded tour stores").
 */
import { useEffect, useRef } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { Link, useLocation } from 'react-router-dom';
import { PRODUCT_NAME } from '@roomwalk/shared';
import { useCookieConsent } from '../state/cookie-consent.js';

const BANNER_HEIGHT = '--rw-cookie-banner-height';
/** The routes a buyer watches a tour on (share links, QR codes, iFrame Code, unbranded links). */
const VISITOR_ROUTES = new Set(['/playerext', '/agentplayer']);

/** Whether a page asks for the cookie choice: the console's own screens, never a visitor's tour or a framed page. */
function asksCookieChoice(
  pathname: string,
  framed: boolean = typeof window !== 'undefined' && window.top !== window,
): boolean {
  return !framed && !VISITOR_ROUTES.has(pathname.replace(/\/+$/, ''));
}

export function CookieBanner() {
  const { state, accept, decline } = useCookieConsent();
  const { pathname } = useLocation();
  const ref = useRef<HTMLElement>(null);
  const shown = state === 'pending' && asksCookieChoice(pathname);
  useEffect(() => {
    const el = ref.current;
    if (!shown || !el) return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() =>
      root.setProperty(BANNER_HEIGHT, `${el.getBoundingClientRect().height}px`),
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.removeProperty(BANNER_HEIGHT);
    };
  }, [shown]);
  if (!shown) return null;
  return (
    <section ref={ref} className="cookie-banner" aria-label="Cookie consent">
      <p>
        {PRODUCT_NAME} uses cookies to keep you signed in and, with your consent, to understand how the service is used.{' '}
        <Link to="/privacy">Privacy policy</Link>
      </p>
      <div className="row">
        <SlButton size="small" onClick={decline}>
          Decline
        </SlButton>
        <SlButton size="small" variant="primary" onClick={accept}>
          Accept
        </SlButton>
      </div>
    </section>
  );
}
