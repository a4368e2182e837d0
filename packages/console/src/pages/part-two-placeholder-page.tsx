/** Placeholder for the tours screens of Console part 2 (upload, shots, players); that issue replaces these routes. */
import { Link } from 'react-router-dom';
import { Page } from '../ui/page.js';

export default function PartTwoPlaceholderPage() {
  return (
    <Page title="Coming soon" back="/" narrow>
      <p>This screen is part of the tours console, which is not available in this build yet.</p>
      <Link to="/">Back to My Tours</Link>
    </Page>
  );
}
