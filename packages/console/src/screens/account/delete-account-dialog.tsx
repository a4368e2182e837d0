/**
 * 'Delete your account': what goes and when (read from the server when the dialog opens), the grace period, and the
 * password that confirms it (an account that signs in with Google gets a confirmation link by mail instead). Focus
 * starts in the password field, moves to the outcome once there is one, and returns to the opener when it closes.
 */
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlSpinner from '@shoelace-style/shoelace/dist/react/spinner/index.js';
import { Dialog } from '../../ui/dialog.js';
import { FormFailure } from '../../ui/form-dialog.js';
import { FormField } from '../../ui/form-field.js';
import { useAccountDeletion } from './use-your-data.js';
import { graceText, scheduledText, YOUR_DATA_TEXTS } from './your-data-rules.js';

export function DeleteAccountDialog({
  open,
  onClose,
  onSignedOut,
}: {
  open: boolean;
  onClose: () => void;
  onSignedOut: () => void;
}) {
  const d = useAccountDeletion(open);
  const [password, setPassword] = useState('');
  const outcome = useRef<HTMLDivElement>(null);
  const passwordField = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!open) setPassword('');
  }, [open]);
  useEffect(() => {
    if (d.step.name !== 'form') outcome.current?.focus();
  }, [d.step.name]);
  useEffect(() => {
    if (d.preview?.needsPassword && d.preview.allowed) passwordField.current?.focus();
  }, [d.preview?.needsPassword, d.preview?.allowed]);
  useEffect(() => {
    if (d.passwordError) passwordField.current?.focus();
  }, [d.passwordError]);

  const scheduled = d.step.name === 'scheduled';
  // Once scheduled the session is over: closing the dialog signs out.
  const close = scheduled ? onSignedOut : onClose;
  const p = d.preview;
  const canSubmit = d.step.name === 'form' && p?.allowed;
  const submit = () => void d.submit(p?.needsPassword ? password : null);

  return (
    <Dialog
      open={open}
      label={YOUR_DATA_TEXTS.dialogTitle}
      onClose={close}
      persistent={d.submitting}
      className="delete-account-dialog"
      footer={
        d.step.name === 'form' ? (
          <>
            <SlButton onClick={onClose}>Cancel</SlButton>
            {canSubmit ? (
              <SlButton variant="danger" loading={d.submitting} onClick={submit} data-testid="delete-account-confirm">
                {p.needsPassword ? YOUR_DATA_TEXTS.confirm : YOUR_DATA_TEXTS.confirmByMail}
              </SlButton>
            ) : null}
          </>
        ) : (
          <SlButton variant="primary" onClick={close}>
            {scheduled ? 'Sign out' : 'Close'}
          </SlButton>
        )
      }
    >
      {d.step.name === 'scheduled' ? (
        <div
          ref={outcome}
          tabIndex={-1}
          role="status"
          className="page-note page-note-success"
          data-testid="deletion-scheduled"
        >
          {scheduledText(d.step.deleteAfter)}
        </div>
      ) : d.step.name === 'mailed' ? (
        <div ref={outcome} tabIndex={-1} role="status" className="page-note" data-testid="deletion-mailed">
          {YOUR_DATA_TEXTS.mailed}
        </div>
      ) : d.loading ? (
        <p role="status">
          <SlSpinner aria-hidden="true" /> Checking what would be deleted…
        </p>
      ) : d.loadError ? (
        <FormFailure failure={d.loadError} />
      ) : p && !p.allowed ? (
        <div role="alert" className="page-note" data-testid="deletion-refused">
          <p>{p.refusal}</p>
          {/team page/i.test(p.refusal ?? '') ? <Link to="/team">Go to the Team page</Link> : null}
        </div>
      ) : p ? (
        <form
          noValidate
          aria-label={YOUR_DATA_TEXTS.dialogTitle}
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <p data-testid="deletion-consequences">{p.consequences}</p>
          <p className="field-hint">{graceText(p.graceDays)}</p>
          {p.needsPassword ? (
            <FormField
              ref={passwordField}
              label={YOUR_DATA_TEXTS.passwordLabel}
              type="password"
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={d.passwordError ?? undefined}
            />
          ) : (
            <p>You sign in with Google, so we mail you a link that confirms the deletion.</p>
          )}
          <FormFailure failure={d.failure} />
          <button type="submit" hidden />
        </form>
      ) : null}
    </Dialog>
  );
}
