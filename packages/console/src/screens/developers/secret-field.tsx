/**
 * A secret in a read-only field with a copy button ("Copied" for a moment, through the console's clipboard hook), and
 * the dialog whose action gives way to a secret shown once.
 */
import { forwardRef, useEffect, useId, useRef, type ReactNode } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { NOTICES } from '@roomwalk/shared';
import { useClipboard } from '../../state/use-clipboard.js';
import { Dialog } from '../../ui/dialog.js';

export const SecretField = forwardRef<HTMLInputElement, { label: string; value: string; note?: string }>(
  function SecretField({ label, value, note }, ref) {
    const id = useId();
    const { state, copy } = useClipboard();
    return (
      <div className="field secret-field">
        <label htmlFor={id}>{label}</label>
        <div className="row nowrap">
          <input
            ref={ref}
            id={id}
            className="secret-value"
            readOnly
            value={value}
            spellCheck={false}
            aria-describedby={note ? `${id}-note` : undefined}
            onFocus={(e) => e.currentTarget.select()}
          />
          <SlButton onClick={() => void copy(value)} loading={state === 'copying'} aria-live="polite">
            <SlIcon slot="prefix" name="clipboard" />
            {state === 'copied' ? NOTICES.copied : state === 'error' ? NOTICES.copyFailed : 'Copy'}
          </SlButton>
        </div>
        {note ? (
          <p id={`${id}-note`} className="page-note" role="note">
            <SlIcon name="exclamation-triangle" aria-hidden="true" /> {note}
          </p>
        ) : null}
      </div>
    );
  },
);

/**
 * A dialog whose action (a form's submit, a confirmation) gives way to a secret shown once, in the same dialog: the
 * form or question and Cancel / the action until then; the secret after, focused (so it is read out and selected), with
 * Done. Closing (Cancel, Done, Escape) is the caller's `onClose`, which forgets the secret.
 */
export function SecretOnceDialog({
  open,
  label,
  secret,
  secretLabel,
  secretNote,
  busy,
  action,
  onClose,
  children,
}: {
  open: boolean;
  /** The title: before the secret and with it. */
  label: { before: string; after: string };
  secret: string | null | undefined;
  /** The secret field's label and the note under it (shown once, keep it). */
  secretLabel: string;
  secretNote: string;
  /** The action is running: the dialog cannot be closed meanwhile. */
  busy: boolean;
  action: { label: string; variant: 'primary' | 'warning'; run: () => void };
  onClose: () => void;
  /** What the dialog shows before the secret. */
  children: ReactNode;
}) {
  const secretInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (secret) secretInput.current?.focus();
  }, [secret]);
  return (
    <Dialog
      open={open}
      label={secret ? label.after : label.before}
      onClose={onClose}
      persistent={busy}
      footer={
        secret ? (
          <SlButton variant="primary" onClick={onClose}>
            Done
          </SlButton>
        ) : (
          <>
            <SlButton onClick={onClose}>Cancel</SlButton>
            <SlButton variant={action.variant} loading={busy} onClick={action.run}>
              {action.label}
            </SlButton>
          </>
        )
      }
    >
      {secret ? <SecretField ref={secretInput} label={secretLabel} value={secret} note={secretNote} /> : children}
    </Dialog>
  );
}
