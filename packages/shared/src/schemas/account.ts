/** Account-side validation: one schema per form, shared by console and server. */
import { z } from '../zod.js';
import {
  getCountryCallingCode,
  isValidPhoneNumber,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js';
import {
  COMPANY_NAME_MAX,
  DEFAULT_PHONE_COUNTRY,
  FEEDBACK_NAME_MAX,
  NAME_MAX,
  PASSWORD_MIN,
  SURNAME_MAX,
} from '../constants.js';
import { VALIDATION as V } from '../messages.js';

/** Email: trimmed, required, valid; lower-cased. */
export const emailField = z
  .string({ error: V.emailRequired })
  .trim()
  .min(1, V.emailRequired)
  .email(V.emailInvalid)
  .transform((s) => s.toLowerCase());

/** A new password: at least 8 characters, one lowercase, one uppercase, one digit. */
export const newPasswordField = (requiredMessage: string = V.passwordRequired) =>
  z
    .string({ error: requiredMessage })
    .min(1, requiredMessage)
    .min(PASSWORD_MIN, V.passwordMin)
    .regex(/[a-z]/, V.passwordLowercase)
    .regex(/[A-Z]/, V.passwordUppercase)
    .regex(/[0-9]/, V.passwordNumber);

const nameField = (required: string, max: number = NAME_MAX) =>
  z.string({ error: required }).trim().min(1, required).max(max, V.maxChars);

/** Runs a cross-field check as soon as both fields are filled in, even while other fields are still invalid. */
function bothPresent(a: string, b: string) {
  return (payload: { value: unknown }) => {
    const v = payload.value as Record<string, unknown> | null;
    return !!v && typeof v[a] === 'string' && typeof v[b] === 'string' && v[b] !== '';
  };
}

export const loginSchema = z.object({
  username: emailField,
  password: z.string({ error: V.passwordRequired }).min(1, V.passwordRequired),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** The sign-up form as the user fills it. */
export const signupFormSchema = z
  .object({
    email: emailField,
    firstname: nameField(V.firstnameRequired),
    surname: nameField(V.surnameRequired, SURNAME_MAX),
    contactNumber: z.string().trim().max(40, V.maxChars).optional().default(''),
    password: newPasswordField(),
    confirmPassword: z.string({ error: V.confirmPasswordRequired }).min(1, V.confirmPasswordRequired),
    acceptedTerms: z.literal(true, { error: V.acceptTerms }),
    turnstileToken: z.string({ error: V.humanCheckRequired }).min(1, V.humanCheckRequired),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: V.passwordsMatch,
    when: bothPresent('password', 'confirmPassword'),
  });
export type SignupFormInput = z.input<typeof signupFormSchema>;

/** The userRegister input as the server receives it. */
export const registerInputSchema = z.object({
  username: emailField,
  password: newPasswordField(),
  inviteToken: z.string().trim().max(200).optional().nullable(),
  referredBy: z.string().trim().max(200).optional().nullable(),
  name: nameField(V.firstnameRequired),
  surname: nameField(V.surnameRequired, SURNAME_MAX),
  contactNumber: z.string().trim().max(40, V.maxChars).optional().nullable(),
  turnstileToken: z.string({ error: V.humanCheckRequired }).min(1, V.humanCheckRequired),
  acceptedTerms: z.literal(true, { error: V.acceptTerms }),
});
export type RegisterInput = z.infer<typeof registerInputSchema>;

export const passwordResetRequestSchema = z.object({ email: emailField });

export const passwordResetFormSchema = z
  .object({
    newPassword: newPasswordField(V.newPasswordRequired),
    confirmPassword: z.string({ error: V.confirmPasswordRequired }).min(1, V.confirmPasswordRequired),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ['confirmPassword'],
    message: V.passwordsMatch,
    when: bothPresent('newPassword', 'confirmPassword'),
  });

export const passwordResetInputSchema = z.object({
  token: z.string().min(1, V.invalidUrl),
  newPassword: newPasswordField(V.newPasswordRequired),
});

export const inviteSchema = z.object({ email: emailField });

/** Formats a phone number as '+{country code} {national number}', or null when it cannot be parsed. */
export function formatContactNumber(value: string, defaultCountry: string = DEFAULT_PHONE_COUNTRY): string | null {
  const parsed = parsePhoneNumberFromString(value.trim(), defaultCountry as CountryCode);
  if (!parsed) return null;
  return `+${parsed.countryCallingCode} ${parsed.nationalNumber}`;
}

/**
 * The contact number from the phone input: the chosen country and what was typed beside it. Numbers typed in
 * international form ('+27 82 555 1234', '0044 20 …') keep their own country code; national ones ('082 555 1234') take
 * the chosen country's. Returns '+{country code} {national number}', or, when the text is not a number, '+{code}
 * {text}' so that validation answers 'Invalid phone number'. Empty input gives ''.
 */
export function contactNumberFromInput(country: string, typed: string): string {
  const text = typed.trim();
  if (!text) return '';
  const parsed = parsePhoneNumberFromString(text, country as CountryCode);
  if (parsed && parsed.isPossible()) return `+${parsed.countryCallingCode} ${parsed.nationalNumber}`;
  if (text.startsWith('+')) return text;
  let code: string;
  try {
    code = getCountryCallingCode(country as CountryCode);
  } catch {
    code = getCountryCallingCode(DEFAULT_PHONE_COUNTRY as CountryCode);
  }
  return `+${code} ${text}`;
}

export const contactNumberField = z
  .string({ error: V.contactNumberRequired })
  .trim()
  .min(1, V.contactNumberRequired)
  .refine((v) => isValidPhoneNumber(v, DEFAULT_PHONE_COUNTRY as CountryCode), V.invalidPhone);

export const profileSchema = z.object({
  name: nameField(V.nameRequired),
  surname: nameField(V.surnameRequired, SURNAME_MAX),
  contactNumber: contactNumberField,
});
export type ProfileInput = z.infer<typeof profileSchema>;

export const companySchema = z.object({
  name: nameField(V.companyNameRequired, COMPANY_NAME_MAX),
  address: z.string().trim().max(200, V.maxChars).optional().nullable(),
  vatNo: z.string().trim().max(40, V.maxChars).optional().nullable(),
  countryCode: z
    .string()
    .trim()
    .regex(/^[a-z]{2}_[A-Z]{2}$/, 'Not a valid country.')
    .optional()
    .nullable(),
});
export type CompanyInput = z.infer<typeof companySchema>;

export const feedbackSchema = z.object({
  name: nameField(V.nameRequired, FEEDBACK_NAME_MAX),
  email: z.string({ error: V.emailRequired }).trim().min(1, V.emailRequired).email(V.feedbackEmailInvalid),
  comment: z.string({ error: V.commentRequired }).trim().min(1, V.commentRequired).max(5000, V.maxChars),
});
export type FeedbackInput = z.infer<typeof feedbackSchema>;
