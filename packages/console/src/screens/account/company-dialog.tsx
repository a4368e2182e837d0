/**
 * Company details: name, address, VAT number; the logo and the tours' accent colour (Custom Company
 * Branding) only on Basic or higher.
 */
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from 'urql';
import {
  BRANDING_TEXTS,
  DEFAULT_COUNTRY_CODE,
  NOTICES,
  VALIDATION,
  accentColorProblem,
  companySchema,
} from '@roomwalk/shared';
import type { z } from 'zod';
import { CompanyBrandingQuery, CompanySaveMutation } from './account-operations.js';
import { describeFailure, isNotAvailableYet } from '../../graphql/errors.js';
import { FormDialog } from '../../ui/form-dialog.js';
import { FormField, shouldShow } from '../../ui/form-field.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { IMAGE_ACCEPT, useImageFile } from './image-file.js';

type Values = z.input<typeof companySchema>;

export interface CompanyValues {
  name: string;
  address: string | null;
  vatno: string | null;
  countrycode: string | null;
}

export function CompanyDialog({
  open,
  onClose,
  onSaved,
  company,
  canEditLogo,
}: {
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
  company: CompanyValues | null;
  canEditLogo: boolean;
}) {
  const [, save] = useMutation(CompanySaveMutation);
  const notify = useSnackbar();
  const logoPick = useImageFile();
  const [failure, setFailure] = useState<string | null>(null);
  const [{ data: branding }] = useQuery({ query: CompanyBrandingQuery, pause: !open });
  const stored = branding?.me.user.company?.accentColor ?? '';
  const [accent, setAccent] = useState('');
  const [accentTouched, setAccentTouched] = useState(false);
  useEffect(() => setAccent(stored), [stored]);
  const accentError = accent.trim() ? accentColorProblem(accent.trim()) : null;
  const { register, handleSubmit, formState } = useForm<Values>({
    resolver: zodResolver(companySchema),
    mode: 'onTouched',
    defaultValues: { name: company?.name ?? '', address: company?.address ?? '', vatNo: company?.vatno ?? '' },
  });
  const show = (n: keyof Values) => (shouldShow(n, formState) ? formState.errors[n]?.message : undefined);

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    if (canEditLogo && accentError) {
      setAccentTouched(true);
      return;
    }
    const r = await save({
      input: {
        countryCode: company?.countrycode || DEFAULT_COUNTRY_CODE,
        name: values.name,
        address: values.address || null,
        vatNo: values.vatNo || null,
        logoImage: canEditLogo ? logoPick.file : null,
        ...(canEditLogo && accent.trim() !== stored ? { accentColor: accent.trim() } : {}),
      },
    });
    if (r.error) {
      // A bad field or a file the server could not read as an image: its reason, in the dialog beside the buttons.
      const input = r.error.graphQLErrors.find(
        (e) => e.extensions?.code === 'BAD_USER_INPUT' || e.extensions?.code === 'UPLOAD_INVALID',
      );
      if (input) setFailure(input.message);
      if (isNotAvailableYet(r.error)) setFailure(describeFailure(r.error));
      // The spec's toast only when the dialog has no precise reason: "Failed to save profile" beside the logo's reason
      // named the wrong thing (this is the company) and said less than the dialog does.
      else if (!input) notify('error', NOTICES.profileSaveFailed);
      return;
    }
    notify('success', NOTICES.profileSaved);
    onSaved();
    onClose();
  });

  return (
    <FormDialog
      open={open}
      label="Edit company details"
      onClose={onClose}
      onSubmit={onSubmit}
      submitting={formState.isSubmitting}
      failure={failure}
    >
      <FormField label="Company name" autoComplete="organization" error={show('name')} {...register('name')} />
      <FormField label="Address" autoComplete="street-address" error={show('address')} {...register('address')} />
      <FormField label="VAT number" error={show('vatNo')} {...register('vatNo')} />
      <FormField
        label="Company logo"
        type="file"
        accept={IMAGE_ACCEPT}
        disabled={!canEditLogo}
        hint={canEditLogo ? undefined : VALIDATION.logoPlanHint}
        error={logoPick.problem ?? undefined}
        onChange={logoPick.onChange}
      />
      <div className="row nowrap accent-row">
        <FormField
          label="Accent colour of your tours"
          placeholder="#1565C0"
          maxLength={7}
          spellCheck={false}
          disabled={!canEditLogo}
          value={accent}
          error={accentError ?? undefined}
          showError={accentTouched}
          hint={
            canEditLogo
              ? 'Buttons and progress in the player, as #RRGGBB; white text on it must stay readable. Empty uses Roomwalk blue.'
              : BRANDING_TEXTS.planHint
          }
          onChange={(e) => setAccent(e.target.value)}
          onBlur={() => setAccentTouched(true)}
        />
        <input
          type="color"
          aria-label="Pick the accent colour"
          disabled={!canEditLogo}
          value={/^#[0-9a-f]{6}$/i.test(accent.trim()) ? accent.trim().toLowerCase() : '#1565c0'}
          onChange={(e) => {
            setAccent(e.target.value);
            setAccentTouched(true);
          }}
        />
      </div>
    </FormDialog>
  );
}
