/**
 * Placeholder 'My Tours' home for Console part 2, which replaces this module: the account alerts,
 * the Add button with its quota check (tours §2), and the tour titles.
 */
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useQuery } from 'urql';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { ERROR_TEXTS, canUpload } from '@roomwalk/shared';
import { HomeQuery, LicenseFields } from '../../graphql/account-operations.js';
import { readFragment } from '../../graphql/graphql.js';
import { AccountAlerts } from '../../account/account-alerts.js';
import { DataLoadError } from '../../ui/data-load-error.js';
import { Dialog } from '../../ui/dialog.js';
import { Loading, Page } from '../../ui/page.js';

export default function HomePage() {
  const [{ data, error }, refetch] = useQuery({ query: HomeQuery, requestPolicy: 'cache-and-network' });
  const navigate = useNavigate();
  const [noUploads, setNoUploads] = useState(false);
  const actions = (
    <>
      <SlButton
        variant="primary"
        onClick={() => {
          const l = data?.me.user.company?.license;
          if (canUpload(l ? readFragment(LicenseFields, l) : null)) navigate('/upload');
          else setNoUploads(true);
        }}
      >
        <SlIcon slot="prefix" name="plus-lg" />
        Add
      </SlButton>
      <SlButton onClick={() => navigate('/account')}>
        <SlIcon slot="prefix" name="person-circle" />
        Account
      </SlButton>
    </>
  );
  if (error && !data) return <Page title="My Tours" actions={actions}><DataLoadError error={error} onRetry={() => refetch({ requestPolicy: 'network-only' })} /></Page>;
  if (!data) return <Page title="My Tours" actions={actions}><Loading /></Page>;
  const user = data.me.user;
  const license = user.company?.license ? readFragment(LicenseFields, user.company.license) : null;
  const tours = data.tours.edges.map((e) => e.node);
  return (
    <Page title="My Tours" actions={actions}>
      <AccountAlerts email={user.profile?.email ?? user.username} activated={user.activated} license={license} />
      {tours.length ? (
        <ul>
          {tours.map((t) => (
            <li key={t.id}>{t.title || 'Untitled tour'}</li>
          ))}
        </ul>
      ) : (
        <p>No tours yet. Use Add to upload your first walkthrough video.</p>
      )}
      <Dialog
        open={noUploads}
        label={ERROR_TEXTS.noMonthlyUploadsLeft}
        onClose={() => setNoUploads(false)}
        footer={<SlButton onClick={() => setNoUploads(false)}>Close</SlButton>}
      >
        <p>{ERROR_TEXTS.upgradeHint}</p>
        <Link to="/account/subscriptions">Upgrade plan</Link>
      </Dialog>
    </Page>
  );
}
