/** The 'Something went wrong...' dialog of login and sign-up, with the support contact. */
import type { ReactNode } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { ERROR_TEXTS, SUPPORT_EMAIL } from '@roomwalk/shared';
import { Dialog } from '../../ui/dialog.js';

export function AuthFailureDialog({
  message,
  onClose,
  extra,
}: {
  message: string | null;
  onClose: () => void;
  extra?: ReactNode;
}) {
  return (
    <Dialog
      open={message !== null}
      label={ERROR_TEXTS.loginFailedTitle}
      onClose={onClose}
      footer={
        <SlButton variant="primary" onClick={onClose}>
          Close
        </SlButton>
      }
    >
      <p>{message}</p>
      {extra}
      <p>
        {ERROR_TEXTS.contactForMore} <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
      </p>
    </Dialog>
  );
}
