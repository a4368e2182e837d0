/** Contact number input: a country (default ZA) and the national number; the value is '+{cc} {national}'. */
import { useId, useMemo, useState } from 'react';
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { DEFAULT_PHONE_COUNTRY, contactNumberFromInput } from '@roomwalk/shared';

export interface PhoneInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string;
  name?: string;
}

/** Splits a stored number into its country and national part, defaulting to ZA. */
function splitPhone(value: string): { country: CountryCode; national: string } {
  const parsed = value ? parsePhoneNumberFromString(value, DEFAULT_PHONE_COUNTRY as CountryCode) : undefined;
  if (parsed?.country) return { country: parsed.country, national: parsed.nationalNumber };
  return { country: DEFAULT_PHONE_COUNTRY as CountryCode, national: value.replace(/^\+\d+\s*/, '') };
}

/**
 * Joins the chosen country and the typed number into the form value. The number may be typed in national
 * ('082 555 1234') or international form ('+27 82 555 1234'); an international number keeps its own country code.
 */
function joinPhone(country: CountryCode, national: string): string {
  return contactNumberFromInput(country, national);
}

/** The country of a number typed in international form, when it names one. */
function typedCountry(typed: string, country: CountryCode): CountryCode | undefined {
  const t = typed.trim();
  if (!t.startsWith('+') && !t.startsWith('00')) return undefined;
  const parsed = parsePhoneNumberFromString(t, country);
  return parsed?.isPossible() ? parsed.country : undefined;
}

const regionNames =
  typeof Intl !== 'undefined' && 'DisplayNames' in Intl ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;

export function PhoneInput({ label, value, onChange, onBlur, error, name }: PhoneInputProps) {
  const id = useId();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the value's first split only; later values are the input's own
  const initial = useMemo(() => splitPhone(value), []);
  const [country, setCountry] = useState<CountryCode>(initial.country);
  const [national, setNational] = useState(initial.national);
  const countries = useMemo(
    () =>
      getCountries()
        .map((c) => ({ code: c, name: regionNames?.of(c) ?? c, cc: getCountryCallingCode(c) }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    [],
  );
  return (
    <div className="field">
      <label htmlFor={`${id}-number`}>{label}</label>
      <div className="phone-input">
        <select
          aria-label="Country calling code"
          value={country}
          onChange={(e) => {
            const c = e.target.value as CountryCode;
            setCountry(c);
            onChange(joinPhone(c, national));
          }}
        >
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name} (+{c.cc})
            </option>
          ))}
        </select>
        <input
          id={`${id}-number`}
          name={name}
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          value={national}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => {
            const typed = e.target.value;
            setNational(typed);
            // '+44 20 …' typed beside South Africa: the selector follows the number's own country.
            const own = typedCountry(typed, country);
            if (own && own !== country) setCountry(own);
            onChange(joinPhone(own ?? country, typed));
          }}
          onBlur={onBlur}
        />
      </div>
      {error ? (
        <div id={`${id}-error`} className="field-error" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}
