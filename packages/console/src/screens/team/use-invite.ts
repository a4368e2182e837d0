/** Invite Member's form and call: one e-mail field checked with the shared invite schema, the server's refusal as a notice. */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from 'urql';
import { NOTICES, inviteSchema } from '@roomwalk/shared';
import type { z } from 'zod';
import { describeFailure, isNotAvailableYet } from '../../graphql/errors.js';
import { shouldShow } from '../../ui/form-field.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { InviteMemberMutation } from './team-operations.js';

type Values = z.input<typeof inviteSchema>;

export function useInvite(o: { companyId: string | null; onInvited: () => void; onClose: () => void }) {
  const [, invite] = useMutation(InviteMemberMutation);
  const notify = useSnackbar();
  const { register, handleSubmit, formState, reset } = useForm<Values>({
    resolver: zodResolver(inviteSchema),
    mode: 'onTouched',
    defaultValues: { email: '' },
  });
  const close = () => {
    reset({ email: '' });
    o.onClose();
  };
  const submit = handleSubmit(async (values) => {
    if (!o.companyId) return notify('error', NOTICES.unknownCompany);
    const r = await invite({ input: { email: values.email, companyId: o.companyId } });
    if (r.error) return notify('error', isNotAvailableYet(r.error) ? describeFailure(r.error) : NOTICES.inviteFailed);
    notify('success', NOTICES.invited);
    o.onInvited();
    close();
  });
  return {
    register,
    submit,
    close,
    submitting: formState.isSubmitting,
    emailError: shouldShow('email', formState) ? formState.errors.email?.message : undefined,
  };
}
