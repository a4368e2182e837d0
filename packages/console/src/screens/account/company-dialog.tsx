/**
 * Company details: name, address, VAT number; the logo and the tours' accent colour (Custom Company
 * Branding) only on Basic or higher.
 */
import { BRANDING_TEXTS, VALIDATION } from '@roomwalk/shared';
import { FormDialog } from '../../ui/form-dialog.js';
import { FormField } from '../../ui/form-field.js';
import { IMAGE_ACCEPT } from './image-file.js';
import { useCompanyDetails, type CompanyValues } from './use-company-details.js';

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
  const {
    register,
    submit,
    submitting,
    failure,
    logoPick,
    errorOf: show,
    accent,
  } = useCompanyDetails({ open, company, canEditLogo, onSaved, onClose });

  return (
    <FormDialog
      open={open}
      label="Edit company details"
      onClose={onClose}
      onSubmit={submit}
      submitting={submitting}
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
          value={accent.value}
          error={accent.error ?? undefined}
          showError={accent.touched}
          hint={
            canEditLogo
              ? 'Buttons and progress in the player, as #RRGGBB; white text on it must stay readable. Empty uses Roomwalk blue.'
              : BRANDING_TEXTS.planHint
          }
          onChange={(e) => accent.type(e.target.value)}
          onBlur={accent.blur}
        />
        <input
          type="color"
          aria-label="Pick the accent colour"
          disabled={!canEditLogo}
          value={/^#[0-9a-f]{6}$/i.test(accent.value.trim()) ? accent.value.trim().toLowerCase() : '#1565c0'}
          onChange={(e) => accent.pick(e.target.value)}
        />
      </div>
    </FormDialog>
  );
}
