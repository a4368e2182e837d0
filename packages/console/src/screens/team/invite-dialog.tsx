/** Invite Member: one e-mail field, checked with the shared invite schema; the server's refusal shown as a notice. */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from 'urql';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { NOTICES, inviteSchema } from '@roomwalk/shared';
import type { z } from 'zod';
import { describeFailure, isNotAvailableYet } from '../../graphql/errors.js';
import { Dialog } from '../../ui/dialog.js';
import { FormField, shouldShow } from '../../ui/form-field.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { InviteMemberMutation } from './team-operations.js';

type Values = z.input<typeof inviteSchema>;

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
  const [, invite] = useMutation(InviteMemberMutation);
  const notify = useSnackbar();
  const { register, handleSubmit, formState, reset } = useForm<Values>({
    resolver: zodResolver(inviteSchema),
    mode: 'onTouched',
    defaultValues: { email: '' },
  });
  const show = shouldShow('email', formState) ? formState.errors.email?.message : undefined;
  const close = () => {
    reset({ email: '' });
    onClose();
  };
  const onSubmit = handleSubmit(async (values) => {
    if (!companyId) return notify('error', NOTICES.unknownCompany);
    const r = await invite({ input: { email: values.email, companyId } });
    if (r.error) return notify('error', isNotAvailableYet(r.error) ? describeFailure(r.error) : NOTICES.inviteFailed);
    notify('success', NOTICES.invited);
    onInvited();
    close();
  });
  return (
    <Dialog
      open={open}
      label="Invite Member"
      onClose={close}
      persistent={formState.isSubmitting}
      footer={
        <>
          <SlButton onClick={close}>Cancel</SlButton>
          <SlButton variant="primary" loading={formState.isSubmitting} onClick={() => void onSubmit()}>
            Invite
          </SlButton>
        </>
      }
    >
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Invite Member">
        <FormField label="Invitee Email" type="email" autoComplete="off" error={show} {...register('email')} />
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
