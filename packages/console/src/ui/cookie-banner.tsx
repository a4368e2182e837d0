/** Cookie banner (accounts §2): shown at the bottom while there is no stored choice. */
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '@roomwalk/shared';
import { useCookieConsent } from '../state/cookie-consent.js';

export function CookieBanner() {
  const { state, accept, decline } = useCookieConsent();
  if (state !== 'pending') return null;
  return (
    <section className="cookie-banner" role="region" aria-label="Cookie consent">
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
