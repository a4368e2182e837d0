/** The account page's three cards: My Plan, Account Details, Company Details (account-page.tsx lays them out). */
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { ACCOUNT_NOTES } from '@roomwalk/shared';
import type { useAccount } from './use-account.js';
import { canManagePlan, dateText, planNote } from './account-rules.js';

type Account = ReturnType<typeof useAccount>;

export function PlanCard({ account: a }: { account: Account }) {
  const { license, admin, paymentReturn, confirmingPayment } = a;
  const note = planNote(license?.planName, admin);
  return (
    <section className="card section" aria-labelledby="my-plan">
      <div className="section-title">
        <h2 id="my-plan">My Plan</h2>
        {canManagePlan(license?.planName, admin) ? (
          <SlButton size="small" loading={a.portal.busy} onClick={() => void a.portal.openPortal()}>
            Manage
          </SlButton>
        ) : null}
      </div>
      {paymentReturn && !confirmingPayment ? (
        <p
          className={`page-note ${paymentReturn === 'success' ? 'page-note-success' : ''}`}
          role="status"
          data-testid="payment-return"
        >
          <SlIcon name={paymentReturn === 'success' ? 'check-circle' : 'info-circle'} aria-hidden="true" />{' '}
          {paymentReturn === 'success' ? ACCOUNT_NOTES.paymentSuccess : ACCOUNT_NOTES.paymentCancelled}
        </p>
      ) : null}
      {note ? (
        <p className="page-note" data-testid="plan-note">
          <SlIcon name="info-circle" aria-hidden="true" />{' '}
          {note === 'offline' ? ACCOUNT_NOTES.offlineLicense : ACCOUNT_NOTES.memberPlan}
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
  );
}

export function AccountDetailsCard({ account: a }: { account: Account }) {
  const profile = a.profile!;
  return (
    <section className="card section" aria-labelledby="account-details">
      <div className="section-title">
        <h2 id="account-details">Account Details</h2>
        <SlButton size="small" onClick={() => a.setDialog('profile')}>
          <SlIcon slot="prefix" name="pencil" />
          Edit
        </SlButton>
      </div>
      <dl className="details">
        <dt>Name</dt>
        <dd data-testid="profile-name">{`${profile.name} ${profile.surname}`.trim()}</dd>
        <dt>Email</dt>
        <dd>{profile.email}</dd>
        <dt>Contact Number</dt>
        <dd data-testid="profile-contact">{profile.contactNumber || '—'}</dd>
      </dl>
    </section>
  );
}

export function CompanyDetailsCard({ account: a }: { account: Account }) {
  const { company, admin } = a;
  return (
    <section className="card section" aria-labelledby="company-details">
      <div className="section-title">
        <h2 id="company-details">Company Details</h2>
        {admin ? (
          <SlButton size="small" onClick={() => a.setDialog('company')}>
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
        <dd>
          {company?.logoimageurl ? (
            <img className="logo-preview" src={company.logoimageurl} alt={`${company.name} logo`} />
          ) : (
            '—'
          )}
        </dd>
      </dl>
    </section>
  );
}
