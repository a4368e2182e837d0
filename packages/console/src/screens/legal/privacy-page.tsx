/** The privacy policy. */
import { Link } from 'react-router-dom';
import { PRODUCT_NAME as P, SUPPORT_EMAIL } from '@roomwalk/shared';
import { Page } from '../../ui/page.js';

export default function PrivacyPage() {
  return (
    <Page title="Privacy Policy" back="history" className="legal">
      <p>This policy explains how {P} handles personal information when you use our console, tours and player.</p>
      <h2>What we collect</h2>
      <ul>
        <li>Account details: your email address, name, surname, contact number, profile image and company details.</li>
        <li>Content: the videos, photos, descriptions and markers you upload, and the tours made from them.</li>
        <li>Visitor details: the name, email and contact number a visitor leaves on a tour, and view counts.</li>
        <li>Billing: your plan and subscription status. Card details go directly to our payment provider.</li>
        <li>Technical data: log records for security, and, only if you accept analytics cookies, usage analytics.</li>
      </ul>
      <h2>Why we use it</h2>
      <p>
        To run your account and tours, bill your plan, send service mail (activation, password reset, invitations), keep
        the Service secure, and answer support requests and feedback.
      </p>
      <h2>Sharing</h2>
      <p>
        We share personal information only with providers that help us run the Service (hosting, email, payments, human
        verification) under contracts that protect it, and when the law requires it. We never sell it.
      </p>
      <h2>Keeping and deleting</h2>
      <p>
        We keep account data while your account is open and delete or anonymise it within 90 days after it closes,
        except what we must keep by law.
      </p>
      <h2>Your rights</h2>
      <p>
        You can see and correct your details on the Account page, and ask us for a copy, deletion or restriction of your
        data at <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>. See also our{' '}
        <Link to="/terms">Terms &amp; Conditions</Link>.
      </p>
    </Page>
  );
}
