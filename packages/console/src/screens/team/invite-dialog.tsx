/** Invite Member: one e-mail field, checked with the shared invite schema; the server's refusal shown as a notice. */
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { Dialog } from '../../ui/dialog.js';
import { FormField } from '../../ui/form-field.js';
import { useInvite } from './use-invite.js';

export function InviteDialog({
  open,
  onClose,
  companyId,
  onInvited,
}: {
  open: boolean;
  onClose: () => void;
  companyId: string | null;
  onInvited: () => void;
}) {
  const { register, submit, close, submitting, emailError: show } = useInvite({ companyId, onInvited, onClose });
  return (
    <Dialog
      open={open}
      label="Invite Member"
      onClose={close}
      persistent={submitting}
      footer={
        <>
          <SlButton onClick={close}>Cancel</SlButton>
          <SlButton variant="primary" loading={submitting} onClick={() => void submit()}>
            Invite
          </SlButton>
        </>
      }
    >
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Invite Member">
        <FormField label="Invitee Email" type="email" autoComplete="off" error={show} {...register('email')} />
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
