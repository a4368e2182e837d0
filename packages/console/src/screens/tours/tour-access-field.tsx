/**
 * Who sees the tour (docs/access-and-privacy.md), in Tour Info: anyone with the link (the default), only
 * people with the password, or only signed-in members of the company. The password is checked with the shared schema
 * (the server checks it again) and sent only when typed; an empty field keeps the password set before.
 */
import { useId } from 'react';
import { TOUR_ACCESS, VALIDATION, tourPasswordSchema, type TourAccess } from '@roomwalk/shared';
import { TOUR_TEXTS } from './texts.js';

export interface AccessChoice {
  access: TourAccess;
  password: string;
}

const OPTIONS: Array<{ value: TourAccess; label: string; hint: string }> = [
  { value: TOUR_ACCESS.public, label: TOUR_TEXTS.accessPublic, hint: TOUR_TEXTS.accessPublicHint },
  { value: TOUR_ACCESS.password, label: TOUR_TEXTS.accessPassword, hint: TOUR_TEXTS.accessPasswordHint },
  { value: TOUR_ACCESS.company, label: TOUR_TEXTS.accessCompany, hint: TOUR_TEXTS.accessCompanyHint },
];

/**
 * What is wrong with the choice, in the owner's words (null when it can be saved). `had` is the tour's current access.
 */
export function accessProblem(choice: AccessChoice, had: TourAccess): string | null {
  if (choice.access !== TOUR_ACCESS.password) return null;
  if (!choice.password) return had === TOUR_ACCESS.password ? null : VALIDATION.tourPasswordNeeded;
  const r = tourPasswordSchema.safeParse(choice.password);
  return r.success ? null : (r.error.issues[0]?.message ?? VALIDATION.tourPasswordShort);
}

/** Whether saving must call tourAccessSet. */
export const accessChanged = (choice: AccessChoice, had: TourAccess): boolean =>
  choice.access !== had || (choice.access === TOUR_ACCESS.password && choice.password !== '');

export function TourAccessField(props: {
  value: AccessChoice;
  had: TourAccess;
  error: string | null;
  onChange: (v: AccessChoice) => void;
}) {
  const id = useId();
  const { value, had, error } = props;
  return (
    <fieldset className="privacy access" data-testid="tour-access">
      <legend>{TOUR_TEXTS.access}</legend>
      {OPTIONS.map((o) => (
        <label key={o.value} className="radio">
          <input
            type="radio"
            name={`${id}-access`}
            value={o.value}
            checked={value.access === o.value}
            aria-describedby={`${id}-${o.value}`}
            onChange={() => props.onChange({ ...value, access: o.value })}
          />
          <span>
            {o.label}
            <span id={`${id}-${o.value}`} className="hint">
              {o.hint}
            </span>
          </span>
        </label>
      ))}
      {value.access === TOUR_ACCESS.password ? (
        <div className="field">
          <label htmlFor={`${id}-password`}>{TOUR_TEXTS.tourPassword}</label>
          <input
            id={`${id}-password`}
            type="password"
            autoComplete="new-password"
            value={value.password}
            placeholder={had === TOUR_ACCESS.password ? TOUR_TEXTS.tourPasswordKeep : ''}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-password-error` : undefined}
            onChange={(e) => props.onChange({ ...value, password: e.currentTarget.value })}
          />
          {error ? (
            <p id={`${id}-password-error`} className="form-failure" role="alert">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </fieldset>
  );
}
