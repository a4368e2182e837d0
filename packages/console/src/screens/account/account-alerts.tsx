/**
 * Account alerts: not activated (with the resend button's four states), no active tours left, no monthly
 * uploads left.
 */
import { useNavigate } from 'react-router-dom';
import SlAlert from '@shoelace-style/shoelace/dist/react/alert/index.js';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { ERROR_TEXTS, hasActiveTourSlot, hasUploadSlot, type LicenseCounts } from '@roomwalk/shared';
import { useActivationResend, type ResendState } from './use-activation-resend.js';

export const RESEND_LABELS: Record<ResendState, string> = {
  idle: 'Re-send activation email',
  sending: 'Sending activation email...',
  success: 'Activation email sent',
  error: 'Failed to send activation email',
};

export interface AccountAlertsProps {
  email: string;
  activated: boolean;
  license: LicenseCounts | null | undefined;
}

/** Which alerts apply: an account without a licence counts as not activated. */
export function alertsFor({ activated, license }: Omit<AccountAlertsProps, 'email'>) {
  return {
    notActivated: !activated || !license,
    noActiveTours: !!license && !hasActiveTourSlot(license),
    noUploads: !!license && !hasUploadSlot(license),
  };
}

export function AccountAlerts(props: AccountAlertsProps) {
  const navigate = useNavigate();
  const { state: resend, detail: resendDetail, resend: onResend } = useActivationResend(props.email);
  const show = alertsFor(props);

  const upgrade = (
    <SlButton size="small" variant="primary" onClick={() => navigate('/account/subscriptions')}>
      Upgrade plan
    </SlButton>
  );

  if (!show.notActivated && !show.noActiveTours && !show.noUploads) return null;
  return (
    <section className="alerts" aria-label="Alerts">
      {show.notActivated ? (
        <SlAlert open variant="warning">
          <SlIcon slot="icon" name="exclamation-triangle" />
          <strong>{ERROR_TEXTS.accountNotActivated}</strong>
          <p>{ERROR_TEXTS.activateHint}</p>
          <SlButton
            size="small"
            variant={resend === 'error' ? 'danger' : resend === 'success' ? 'success' : 'default'}
            loading={resend === 'sending'}
            disabled={resend === 'sending' || resend === 'success'}
            onClick={() => void onResend()}
          >
            {RESEND_LABELS[resend]}
          </SlButton>
          {resendDetail ? <p className="form-failure">{resendDetail}</p> : null}
        </SlAlert>
      ) : null}
      {show.noActiveTours ? (
        <SlAlert open variant="danger">
          <SlIcon slot="icon" name="exclamation-octagon" />
          <strong>{ERROR_TEXTS.noActiveToursLeft}</strong>
          <p>{ERROR_TEXTS.upgradeHint}</p>
          {upgrade}
        </SlAlert>
      ) : null}
      {show.noUploads ? (
        <SlAlert open variant="danger">
          <SlIcon slot="icon" name="exclamation-octagon" />
          <strong>{ERROR_TEXTS.noMonthlyUploadsLeft}</strong>
          <p>{ERROR_TEXTS.upgradeHint}</p>
          {upgrade}
        </SlAlert>
      ) : null}
    </section>
  );
}
