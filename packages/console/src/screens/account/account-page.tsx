/** The account page (accounts §2): max width 500 px; plan, account and company details, alerts and log out. */
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useQuery } from 'urql';
import SlAvatar from '@shoelace-style/shoelace/dist/react/avatar/index.js';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { ACCOUNT_NOTES, PLAN_IDS, hasHigherPlan, isAdmin, isFreeTrial, planById } from '@roomwalk/shared';
import { basicOrHigher } from '../billing/plan-access.js';
import { AccountQuery, LicenseFields } from './account-operations.js';
import { readFragment } from '../../graphql/graphql.js';
import { AccountAlerts } from './account-alerts.js';
import { CompanyDialog } from './company-dialog.js';
import { EditProfileDialog } from './edit-profile-dialog.js';
import { useBillingPortal } from '../billing/use-billing-portal.js';
import { usePaymentConfirmation } from '../billing/use-payment-confirmation.js';
import { useSession, useSessionStore } from '../../session/session-context.js';
import { DataLoadError } from '../../ui/data-load-error.js';
import { Loading, Page } from '../../ui/page.js';

function initials(name?: string | null, surname?: string | null, fallback = ''): string {
  const i = `${name?.trim()[0] ?? ''}${surname?.trim()[0] ?? ''}`.toUpperCase();
  return i || fallback.trim()[0]?.toUpperCase() || '?';
}

const dateText = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString('en-ZA', { year: 'numeric', month: 'short', day: 'numeric' }) : '—');

export default function AccountPage() {
  const [{ data, fetching, error }, refetch] = useQuery({ query: AccountQuery, requestPolicy: 'cache-and-network' });
  const { roles } = useSession();
  const store = useSessionStore();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<'profile' | 'company' | null>(null);
  const { openPortal, busy } = useBillingPortal();
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const { pathname } = useLocation();
  const seenQuantity = data ? (data.me.user.company?.license ? readFragment(LicenseFields, data.me.user.company.license).quantity : null) : undefined;
  const confirmingPayment = usePaymentConfirmation(pathname === '/profile/success', seenQuantity, reload);

  if (error && !data)
    return (
      <Page title="Account" back="/" narrow>
        <DataLoadError error={error} onRetry={reload} />
      </Page>
    );
  if (!data)
    return (
      <Page title="Account" back="/" narrow>
        {fetching ? <Loading /> : null}
      </Page>
    );

  const user = data.me.user;
  const profile = user.profile;
  const company = user.company;
  const license = company?.license ? readFragment(LicenseFields, company.license) : null;
  const admin = isAdmin(roles) || user.role === 'ADMIN';
  const offline = license?.planName === planById(PLAN_IDS.offline)!.planName;
  const paymentReturn = pathname === '/profile/success' ? 'success' : pathname === '/profile/cancel' ? 'cancel' : null;
  // Leave first, so the private-route guard does not remember /account as the place to return to.
  const logout = () => {
    navigate('/login', { replace: true });
    store.logout('user');
  };

  const profileDialog = (
    <EditProfileDialog
      key={`${profile?.id ?? 'new'}-${dialog}`}
      open={dialog === 'profile'}
      onClose={() => setDialog(null)}
      onSaved={reload}
      profile={{ name: profile?.name ?? '', surname: profile?.surname ?? '', email: profile?.email ?? user.username, contactNumber: profile?.contactNumber ?? null }}
    />
  );

  if (!profile) {
    return (
      <Page title="Add profile details" back="/" narrow>
        <p>Tell us who you are so your tours and your team can show your name and contact number.</p>
        <SlButton variant="primary" onClick={() => setDialog('profile')}>
          Add profile details
        </SlButton>
        <div className="section">
          <SlButton onClick={logout}>
            <SlIcon slot="prefix" name="box-arrow-right" />
            Log out
          </SlButton>
        </div>
        {profileDialog}
      </Page>
    );
  }

  const fullName = `${profile.name} ${profile.surname}`.trim();
  return (
    <Page
      title="Account"
      back="/"
      narrow
      actions={
        admin && license ? (
          <>
            {hasHigherPlan(license.planName) ? (
              <SlButton size="small" variant="primary" onClick={() => navigate('/account/subscriptions')}>
                <SlIcon slot="prefix" name="arrow-up-circle" />
                Upgrade
              </SlButton>
            ) : null}
            <SlButton size="small" onClick={() => navigate('/team')}>
              <SlIcon slot="prefix" name="people" />
              My Team
            </SlButton>
            <SlButton size="small" onClick={() => navigate('/reports')}>
              <SlIcon slot="prefix" name="file-earmark-bar-graph" />
              Reports
            </SlButton>
            <SlButton size="small" onClick={() => navigate('/account/developers')}>
              <SlIcon slot="prefix" name="code-slash" />
              APIs &amp; Webhooks
            </SlButton>
          </>
        ) : null
      }
    >
      <div className="account-head">
        <SlAvatar image={profile.profileImageURL ?? ''} initials={initials(profile.name, profile.surname, user.username)} label={`Avatar of ${fullName}`} />
        <div>
          <strong>{fullName}</strong>
          <div className="field-hint">{profile.email}</div>
        </div>
      </div>

      <AccountAlerts email={profile.email || user.username} activated={user.activated} license={license} />

      <section className="card section" aria-labelledby="my-plan">
        <div className="section-title">
          <h2 id="my-plan">My Plan</h2>
          {license && !isFreeTrial(license.planName) && admin && !offline ? (
            <SlButton size="small" loading={busy} onClick={() => void openPortal()}>
              Manage
            </SlButton>
          ) : null}
        </div>
        {paymentReturn && !confirmingPayment ? (
          <p className={`page-note ${paymentReturn === 'success' ? 'page-note-success' : ''}`} role="status" data-testid="payment-return">
            <SlIcon name={paymentReturn === 'success' ? 'check-circle' : 'info-circle'} aria-hidden="true" />{' '}
            {paymentReturn === 'success' ? ACCOUNT_NOTES.paymentSuccess : ACCOUNT_NOTES.paymentCancelled}
          </p>
        ) : null}
        {offline ? (
          <p className="page-note" data-testid="plan-note">
            <SlIcon name="info-circle" aria-hidden="true" /> {ACCOUNT_NOTES.offlineLicense}
          </p>
        ) : license && !isFreeTrial(license.planName) && !admin ? (
          <p className="page-note" data-testid="plan-note">
            <SlIcon name="info-circle" aria-hidden="true" /> {ACCOUNT_NOTES.memberPlan}
          </p>
        ) : null}
        {license ? (
          <dl className="details">
            <dt>Plan</dt>
            <dd data-testid="plan-name">{license.planName}</dd>
            {confirmingPayment ? <dd role="status">Confirming your payment…</dd> : null}
            <dt>Active tours</dt>
            <dd>
              {license.monthlyActiveTours} of {license.quantity}
            </dd>
            <dt>Uploads this month</dt>
            <dd>
              {license.monthlyUploadedTours} of {license.uploadLimit}
            </dd>
            <dt>Started</dt>
            <dd>{dateText(license.startDate)}</dd>
            {license.endDate ? (
              <>
                <dt>Ends</dt>
                <dd>{dateText(license.endDate)}</dd>
              </>
            ) : null}
          </dl>
        ) : (
          <p>No active plan.</p>
        )}
      </section>

      <section className="card section" aria-labelledby="account-details">
        <div className="section-title">
          <h2 id="account-details">Account Details</h2>
          <SlButton size="small" onClick={() => setDialog('profile')}>
            <SlIcon slot="prefix" name="pencil" />
            Edit
          </SlButton>
        </div>
        <dl className="details">
          <dt>Name</dt>
          <dd data-testid="profile-name">{fullName}</dd>
          <dt>Email</dt>
          <dd>{profile.email}</dd>
          <dt>Contact Number</dt>
          <dd data-testid="profile-contact">{profile.contactNumber || '—'}</dd>
        </dl>
      </section>

      <section className="card section" aria-labelledby="company-details">
        <div className="section-title">
          <h2 id="company-details">Company Details</h2>
          {admin ? (
            <SlButton size="small" onClick={() => setDialog('company')}>
              <SlIcon slot="prefix" name="pencil" />
              Edit
            </SlButton>
          ) : null}
        </div>
        {admin ? null : (
          <p className="page-note" data-testid="company-note">
            <SlIcon name="info-circle" aria-hidden="true" /> {ACCOUNT_NOTES.memberCompany}
          </p>
        )}
        <dl className="details">
          <dt>Name</dt>
          <dd data-testid="company-name">{company?.name || '—'}</dd>
          <dt>Address</dt>
          <dd data-testid="company-address">{company?.address || '—'}</dd>
          <dt>VAT number</dt>
          <dd data-testid="company-vat">{company?.vatno || '—'}</dd>
          <dt>Logo</dt>
          <dd>{company?.logoimageurl ? <img className="logo-preview" src={company.logoimageurl} alt={`${company.name} logo`} /> : '—'}</dd>
        </dl>
      </section>

      <SlButton className="full-width" onClick={logout}>
        <SlIcon slot="prefix" name="box-arrow-right" />
        Log out
      </SlButton>

      <nav className="footer-links" aria-label="Legal">
        <Link to="/privacy">Privacy</Link>
        <Link to="/terms">Terms</Link>
        <Link to="/licenses">Licenses</Link>
      </nav>

      {profileDialog}
      <CompanyDialog
        key={`${company?.id ?? 'none'}-${dialog}`}
        open={dialog === 'company'}
        onClose={() => setDialog(null)}
        onSaved={reload}
        company={company ? { name: company.name, address: company.address ?? null, vatno: company.vatno ?? null, countrycode: company.countrycode } : null}
        canEditLogo={basicOrHigher(roles, license?.planName)}
      />
    </Page>
  );
}
