/**
 * "Edit your profile"'s form and save: the contact number formatted (or refused) before sending, the picture the
 * server could not read named in the dialog, the spec's notices.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from 'urql';
import { NOTICES, VALIDATION, formatContactNumber, profileSchema } from '@roomwalk/shared';
import type { z } from 'zod';
import { describeFailure, isNotAvailableYet } from '../../graphql/errors.js';
import { shouldShow } from '../../ui/form-field.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { UserSaveMutation } from './account-operations.js';
import { useImageFile } from './image-file.js';

type Values = z.input<typeof profileSchema>;

export interface ProfileValues {
  name: string;
  surname: string;
  email: string;
  contactNumber: string | null;
}

export function useEditProfile(o: { profile: ProfileValues; onSaved: () => void; onClose: () => void }) {
  const [, save] = useMutation(UserSaveMutation);
  const notify = useSnackbar();
  const imagePick = useImageFile();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, control, handleSubmit, formState, setError } = useForm<Values>({
    resolver: zodResolver(profileSchema),
    mode: 'onTouched',
    defaultValues: {
      name: o.profile.name,
      surname: o.profile.surname,
      contactNumber: o.profile.contactNumber ?? '',
    },
  });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    const contactNumber = formatContactNumber(values.contactNumber);
    if (!contactNumber) {
      setError('contactNumber', { message: VALIDATION.contactNumberUnparsable });
      return;
    }
    const r = await save({
      input: { name: values.name, surname: values.surname, contactNumber, profileImage: imagePick.file },
    });
    if (r.error) {
      if (isNotAvailableYet(r.error)) setFailure(describeFailure(r.error));
      // A picture the server could not read: its reason in the dialog, not only the toast.
      const unreadable = r.error.graphQLErrors.find((e) => e.extensions?.code === 'UPLOAD_INVALID');
      if (unreadable) setFailure(unreadable.message);
      notify('error', NOTICES.profileSaveFailed);
      return;
    }
    notify('success', NOTICES.successful);
    o.onSaved();
    o.onClose();
  });

  return {
    register,
    control,
    submit,
    submitting: formState.isSubmitting,
    failure,
    imagePick,
    /** A field's error once the form says it may be shown. */
    errorOf: (n: keyof Values) => (shouldShow(n, formState) ? formState.errors[n]?.message : undefined),
  };
}
