/** 'Edit your profile': name, surname, read-only email, phone (default ZA) and profile image. */
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from 'urql';
import { NOTICES, VALIDATION, formatContactNumber, profileSchema } from '@roomwalk/shared';
import type { z } from 'zod';
import { UserSaveMutation } from './account-operations.js';
import { describeFailure, isNotAvailableYet } from '../../graphql/errors.js';
import { FormDialog } from '../../ui/form-dialog.js';
import { FormField, shouldShow } from '../../ui/form-field.js';
import { PhoneInput } from '../../ui/phone-input.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { IMAGE_ACCEPT, useImageFile } from './image-file.js';

type Values = z.input<typeof profileSchema>;

export interface ProfileValues {
  name: string;
  surname: string;
  email: string;
  contactNumber: string | null;
}

export function EditProfileDialog({
  open,
  onClose,
  onSaved,
  profile,
}: {
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
  profile: ProfileValues;
}) {
  const [, save] = useMutation(UserSaveMutation);
  const notify = useSnackbar();
  const imagePick = useImageFile();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, control, handleSubmit, formState, setError } = useForm<Values>({
    resolver: zodResolver(profileSchema),
    mode: 'onTouched',
    defaultValues: { name: profile.name, surname: profile.surname, contactNumber: profile.contactNumber ?? '' },
  });
  const show = (n: keyof Values) => (shouldShow(n, formState) ? formState.errors[n]?.message : undefined);

  const onSubmit = handleSubmit(async (values) => {
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
    onSaved();
    onClose();
  });

  return (
    <FormDialog
      open={open}
      label="Edit your profile"
      onClose={onClose}
      onSubmit={onSubmit}
      submitting={formState.isSubmitting}
      failure={failure}
    >
      <FormField label="Name" autoComplete="given-name" error={show('name')} {...register('name')} />
      <FormField label="Surname" autoComplete="family-name" error={show('surname')} {...register('surname')} />
      <FormField label="Email" type="email" value={profile.email} readOnly aria-readonly="true" />
      <Controller
        control={control}
        name="contactNumber"
        render={({ field }) => (
          <PhoneInput
            label="Contact Number"
            name={field.name}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={show('contactNumber')}
          />
        )}
      />
      <FormField
        label="Profile image"
        type="file"
        accept={IMAGE_ACCEPT}
        error={imagePick.problem ?? undefined}
        onChange={imagePick.onChange}
      />
    </FormDialog>
  );
}
