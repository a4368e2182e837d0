/**
 * The lead form's helpers: the country list of the phone field, a stored number's prefill, the Turnstile check
 * (turnstile.ts).
 */
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { DEFAULT_PHONE_COUNTRY } from '@roomwalk/shared/constants';

export { loadTurnstile, siteKey } from './turnstile.js';

const regionNames =
  typeof Intl !== 'undefined' && 'DisplayNames' in Intl ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;
let countryOptions: Array<{ code: string; label: string }> | null = null;
/** Every country with its calling code, by name ('South Africa (+27)'), as the console's phone input lists them. */
export function countries(): Array<{ code: string; label: string }> {
  countryOptions ??= getCountries()
    .map((c) => ({ code: c as string, name: regionNames?.of(c) ?? c, cc: getCountryCallingCode(c) }))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((c) => ({ code: c.code, label: `${c.name} (+${c.cc})` }));
  return countryOptions;
}

/** A stored '+27 821112222' as its country and national number, for the form's prefill (default ZA). */
export function splitContact(value: string | null | undefined): { country: string; national: string } {
  const parsed = value ? parsePhoneNumberFromString(value, DEFAULT_PHONE_COUNTRY as CountryCode) : undefined;
  if (parsed?.country) return { country: parsed.country, national: parsed.nationalNumber };
  return { country: DEFAULT_PHONE_COUNTRY, national: value ?? '' };
}
