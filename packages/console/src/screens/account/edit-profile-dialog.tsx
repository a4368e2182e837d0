/** 'Edit your profile': name, surname, read-only email, phone (default ZA) and profile image. */
import { Controller } from 'react-hook-form';
import { FormDialog } from '../../ui/form-dialog.js';
import { FormField } from '../../ui/form-field.js';
import { PhoneInput } from '../../ui/phone-input.js';
import { IMAGE_ACCEPT } from './image-file.js';
import { useEditProfile, type ProfileValues } from './use-edit-profile.js';

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
  const {
    register,
    control,
    submit,
    submitting,
    failure,
    imagePick,
    errorOf: show,
  } = useEditProfile({
    profile,
    onSaved,
    onClose,
  });

  return (
    <FormDialog
      open={open}
      label="Edit your profile"
      onClose={onClose}
      onSubmit={submit}
      submitting={submitting}
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
