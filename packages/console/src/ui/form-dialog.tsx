/**
 * A dialog holding one form: Cancel and a primary submit button in the footer, Enter submits, the failure line under
 * the fields is announced, and the dialog stays open while the form is submitting.
 */
import type { ReactNode } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { Dialog } from './dialog.js';

/** The form-level failure line (a server or network failure the fields cannot show), announced when it appears. */
export function FormFailure({ failure }: { failure: string | null }) {
  return failure ? (
    <p className="form-failure" role="alert">
      {failure}
    </p>
  ) : null;
}

export interface FormDialogProps {
  open: boolean;
  /** The dialog's title; also the form's accessible name unless `formLabel` is given. */
  label: string;
  formLabel?: string;
  onClose: () => void;
  /** react-hook-form's `handleSubmit(...)` result. */
  onSubmit: (e?: React.BaseSyntheticEvent) => Promise<void>;
  submitting: boolean;
  failure: string | null;
  submitLabel?: string;
  /** The Cancel button's text; null leaves it out. */
  cancelLabel?: string | null;
  /** Keep the dialog open on Escape and overlay clicks even when not submitting. */
  persistent?: boolean;
  /** Content above the form (outside it), such as a separate upload control. */
  before?: ReactNode;
  children: ReactNode;
}

export function FormDialog({
  open,
  label,
  formLabel,
  onClose,
  onSubmit,
  submitting,
  failure,
  submitLabel = 'Save',
  cancelLabel = 'Cancel',
  persistent,
  before,
  children,
}: FormDialogProps) {
  return (
    <Dialog
      open={open}
      label={label}
      onClose={onClose}
      persistent={submitting || persistent}
      footer={
        <>
          {cancelLabel !== null ? <SlButton onClick={onClose}>{cancelLabel}</SlButton> : null}
          <SlButton variant="primary" loading={submitting} onClick={() => void onSubmit()}>
            {submitLabel}
          </SlButton>
        </>
      }
    >
      {before}
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label={formLabel ?? label}>
        {children}
        <FormFailure failure={failure} />
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
