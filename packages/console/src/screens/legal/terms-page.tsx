import { Page } from '../../ui/page.js';
import { TermsDocument } from './terms-document.js';

export default function TermsPage() {
  return (
    <Page title="Terms & Conditions" back="history" className="legal">
      <TermsDocument />
    </Page>
  );
}
