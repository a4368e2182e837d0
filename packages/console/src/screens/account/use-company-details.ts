/**
 * "Edit company details"'s form and save: the stored accent colour read when the dialog opens, the logo and colour
 * sent only on Basic or higher (the colour only when changed), the server's reason shown in the dialog.
 */
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from 'urql';
import { DEFAULT_COUNTRY_CODE, NOTICES, accentColorProblem, companySchema } from '@roomwalk/shared';
import type { z } from 'zod';
import { describeFailure, isNotAvailableYet } from '../../graphql/errors.js';
import { shouldShow } from '../../ui/form-field.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { CompanyBrandingQuery, CompanySaveMutation } from './account-operations.js';
import { useImageFile } from './image-file.js';

type Values = z.input<typeof companySchema>;

export interface CompanyValues {
  name: string;
  address: string | null;
  vatno: string | null;
  countrycode: string | null;
}

export function useCompanyDetails(o: {
  open: boolean;
  company: CompanyValues | null;
  canEditLogo: boolean;
  onSaved: () => void;
  onClose: () => void;
}) {
  const { company, canEditLogo } = o;
  const [, save] = useMutation(CompanySaveMutation);
  const notify = useSnackbar();
  const logoPick = useImageFile();
  const [failure, setFailure] = useState<string | null>(null);
  const [{ data: branding }] = useQuery({ query: CompanyBrandingQuery, pause: !o.open });
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

  const submit = handleSubmit(async (values) => {
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
    o.onSaved();
    o.onClose();
  });

  return {
    register,
    submit,
    submitting: formState.isSubmitting,
    failure,
    logoPick,
    /** A field's error once the form says it may be shown. */
    errorOf: (n: keyof Values) => (shouldShow(n, formState) ? formState.errors[n]?.message : undefined),
    accent: {
      value: accent,
      error: accentError,
      touched: accentTouched,
      /** Typed in the field (shown as touched once it loses focus). */
      type: setAccent,
      blur: () => setAccentTouched(true),
      /** Picked with the colour input. */
      pick: (v: string) => {
        setAccent(v);
        setAccentTouched(true);
      },
    },
  };
}
