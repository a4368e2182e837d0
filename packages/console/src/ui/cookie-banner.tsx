/**
 * Cookie banner (accounts §2): shown at the bottom while there is no stored choice. While shown, its height is
 * published as `--rw-cookie-banner-height` on the root element, so full-screen pages (the player) end above it
 * rather than under it.
 */
import { useEffect, useRef } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '@roomwalk/shared';
import { useCookieConsent } from '../state/cookie-consent.js';

const BANNER_HEIGHT = '--rw-cookie-banner-height';

export function CookieBanner() {
  const { state, accept, decline } = useCookieConsent();
  const ref = useRef<HTMLElement>(null);
  const shown = state === 'pending';
  useEffect(() => {
    const el = ref.current;
    if (!shown || !el) return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() => root.setProperty(BANNER_HEIGHT, `${el.getBoundingClientRect().height}px`));
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
        {PRODUCT_NAME} uses cookies to keep you signed in and, with your consent, to understand how the service is used. <Link to="/privacy">Privacy policy</Link>
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
