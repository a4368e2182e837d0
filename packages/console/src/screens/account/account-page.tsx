/** The account page: max width 500 px; plan, account and company details, alerts and log out. */
import { Link } from 'react-router-dom';
import SlAvatar from '@shoelace-style/shoelace/dist/react/avatar/index.js';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { hasHigherPlan } from '@roomwalk/shared';
import { DataLoadError } from '../../ui/data-load-error.js';
import { Loading, Page } from '../../ui/page.js';
import { AccountAlerts } from './account-alerts.js';
import { initials } from './account-rules.js';
import { AccountDetailsCard, CompanyDetailsCard, PlanCard } from './account-sections.js';
import { CompanyDialog } from './company-dialog.js';
import { EditProfileDialog } from './edit-profile-dialog.js';
import { useAccount } from './use-account.js';
import { YourDataCard } from './your-data-section.js';

export default function AccountPage() {
  const a = useAccount();
  const { user, profile, company, license, dialog } = a;

  if (!user)
    return (
      <Page title="Account" back="/" narrow>
        {a.error ? <DataLoadError error={a.error} onRetry={a.reload} /> : a.fetching ? <Loading /> : null}
      </Page>
    );

  const profileDialog = (
    <EditProfileDialog
      key={`${profile?.id ?? 'new'}-${dialog}`}
      open={dialog === 'profile'}
      onClose={() => a.setDialog(null)}
      onSaved={a.reload}
      profile={{
        name: profile?.name ?? '',
        surname: profile?.surname ?? '',
        email: profile?.email ?? user.username,
        contactNumber: profile?.contactNumber ?? null,
      }}
    />
  );
  const logOut = (
    <SlButton className={profile ? 'full-width' : undefined} onClick={a.logout}>
      <SlIcon slot="prefix" name="box-arrow-right" />
      Log out
    </SlButton>
  );

  if (!profile) {
    return (
      <Page title="Add profile details" back="/" narrow>
        <p>Tell us who you are so your tours and your team can show your name and contact number.</p>
        <SlButton variant="primary" onClick={() => a.setDialog('profile')}>
          Add profile details
        </SlButton>
        <div className="section">{logOut}</div>
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
        a.admin && license ? (
          <>
            {hasHigherPlan(license.planName) ? (
              <SlButton size="small" variant="primary" onClick={() => a.go('/account/subscriptions')}>
                <SlIcon slot="prefix" name="arrow-up-circle" />
                Upgrade
              </SlButton>
            ) : null}
            <SlButton size="small" onClick={() => a.go('/team')}>
              <SlIcon slot="prefix" name="people" />
              My Team
            </SlButton>
            <SlButton size="small" onClick={() => a.go('/reports')}>
              <SlIcon slot="prefix" name="file-earmark-bar-graph" />
              Reports
            </SlButton>
            <SlButton size="small" onClick={() => a.go('/account/developers')}>
              <SlIcon slot="prefix" name="code-slash" />
              APIs &amp; Webhooks
            </SlButton>
          </>
        ) : null
      }
    >
      <div className="account-head">
        <SlAvatar
          image={profile.profileImageURL ?? ''}
          initials={initials(profile.name, profile.surname, user.username)}
          label={`Avatar of ${fullName}`}
        />
        <div>
          <strong>{fullName}</strong>
          <div className="field-hint">{profile.email}</div>
        </div>
      </div>

      <AccountAlerts email={profile.email || user.username} activated={user.activated} license={license} />
      <PlanCard account={a} />
      <AccountDetailsCard account={a} />
      <CompanyDetailsCard account={a} />
      <YourDataCard onSignedOut={a.logout} />
      {logOut}

      <nav className="footer-links" aria-label="Legal">
        <Link to="/privacy">Privacy</Link>
        <Link to="/terms">Terms</Link>
        <Link to="/licenses">Licenses</Link>
      </nav>

      {profileDialog}
      <CompanyDialog
        key={`${company?.id ?? 'none'}-${dialog}`}
        open={dialog === 'company'}
        onClose={() => a.setDialog(null)}
        onSaved={a.reload}
        company={
          company
            ? {
                name: company.name,
                address: company.address ?? null,
                vatno: company.vatno ?? null,
                countrycode: company.countrycode,
              }
            : null
        }
        canEditLogo={a.canEditLogo}
      />
    </Page>
  );
}
