import { describe, expect, it } from 'vitest';
import { VALIDATION as V } from '../messages.js';
import {
  companySchema,
  contactNumberFromInput,
  feedbackSchema,
  formatContactNumber,
  inviteSchema,
  loginSchema,
  passwordResetFormSchema,
  passwordResetInputSchema,
  passwordResetRequestSchema,
  profileSchema,
  registerInputSchema,
  signupFormSchema,
} from './account.js';
import type { z } from 'zod';

/** The first message for a field (what the form shows). */
function messageFor(schema: z.ZodType, value: unknown, field: string): string | undefined {
  const r = schema.safeParse(value);
  if (r.success) return undefined;
  return r.error.issues.find((i) => i.path.join('.') === field)?.message;
}

const goodSignup = {
  email: '  Agent@Example.COM ',
  firstname: ' Ann ',
  surname: ' Lee ',
  contactNumber: '',
  password: 'Secret123',
  confirmPassword: 'Secret123',
  acceptedTerms: true,
  turnstileToken: 'tok',
};

describe('login form', () => {
  it('trims and lower-cases the email', () => {
    expect(loginSchema.parse({ username: '  A@B.CO ', password: 'x' }).username).toBe('a@b.co');
  });
  it('requires a valid email and a password', () => {
    expect(messageFor(loginSchema, { username: '', password: 'x' }, 'username')).toBe(V.emailRequired);
    expect(messageFor(loginSchema, { username: 'nope', password: 'x' }, 'username')).toBe(V.emailInvalid);
    expect(messageFor(loginSchema, { username: 'a@b.co', password: '' }, 'password')).toBe(
      'Password is a required field.',
    );
  });
});

describe('sign-up form', () => {
  it('accepts a good form, trimming names and lower-casing the email', () => {
    const v = signupFormSchema.parse(goodSignup);
    expect(v.email).toBe('agent@example.com');
    expect(v.firstname).toBe('Ann');
    expect(v.surname).toBe('Lee');
  });
  it.each([
    ['short', 'Ab1', V.passwordMin],
    ['no lowercase', 'ABCDEFG1', V.passwordLowercase],
    ['no uppercase', 'abcdefg1', V.passwordUppercase],
    ['no digit', 'Abcdefgh', V.passwordNumber],
  ])('gives each password rule its own message: %s', (_n, password, msg) => {
    expect(messageFor(signupFormSchema, { ...goodSignup, password, confirmPassword: password }, 'password')).toBe(msg);
  });
  it('says the passwords do not match even while another field is still empty', () => {
    expect(
      messageFor(signupFormSchema, { ...goodSignup, firstname: '', confirmPassword: 'Other123' }, 'confirmPassword'),
    ).toBe('Passwords must match');
  });
  it('needs matching passwords', () => {
    expect(messageFor(signupFormSchema, { ...goodSignup, confirmPassword: 'Other123' }, 'confirmPassword')).toBe(
      'Passwords must match',
    );
  });
  it('limits names to 30 characters and requires the surname', () => {
    expect(messageFor(signupFormSchema, { ...goodSignup, firstname: 'x'.repeat(31) }, 'firstname')).toBe(
      'Maximum characters reached',
    );
    expect(messageFor(signupFormSchema, { ...goodSignup, surname: '  ' }, 'surname')).toBe(
      'Surname is a required field.',
    );
  });
  it('requires accepting the terms and the human check', () => {
    expect(messageFor(signupFormSchema, { ...goodSignup, acceptedTerms: false }, 'acceptedTerms')).toBe(
      'Please accept the terms and conditions.',
    );
    expect(messageFor(signupFormSchema, { ...goodSignup, turnstileToken: '' }, 'turnstileToken')).toBe(
      V.humanCheckRequired,
    );
  });
  it('validates the userRegister payload the same way on the server', () => {
    const payload = {
      username: 'A@B.CO',
      password: 'Secret123',
      name: 'Ann',
      surname: 'Lee',
      turnstileToken: 't',
      acceptedTerms: true,
    };
    expect(registerInputSchema.parse(payload).username).toBe('a@b.co');
    expect(registerInputSchema.safeParse({ ...payload, password: 'weak' }).success).toBe(false);
  });
});

describe('password reset', () => {
  it('lower-cases the request email', () => {
    expect(passwordResetRequestSchema.parse({ email: ' X@Y.COM' }).email).toBe('x@y.com');
  });
  it('has the new-password messages', () => {
    expect(messageFor(passwordResetFormSchema, { newPassword: '', confirmPassword: 'a' }, 'newPassword')).toBe(
      'New Password is a required field.',
    );
    expect(
      messageFor(passwordResetFormSchema, { newPassword: 'Secret123', confirmPassword: '' }, 'confirmPassword'),
    ).toBe('Confirm Password is a required field.');
    expect(
      messageFor(
        passwordResetFormSchema,
        { newPassword: 'Secret123', confirmPassword: 'Secret124' },
        'confirmPassword',
      ),
    ).toBe('Passwords must match');
    expect(passwordResetInputSchema.safeParse({ token: 't', newPassword: 'abcdefgh1' }).success).toBe(false);
  });
});

describe('invite, profile, company and feedback forms', () => {
  it('validates the invite email', () => {
    expect(messageFor(inviteSchema, { email: '' }, 'email')).toBe('Email is a required field.');
    expect(messageFor(inviteSchema, { email: 'x' }, 'email')).toBe('Not a valid email.');
  });
  it('checks the profile phone number, defaulting to South Africa', () => {
    expect(messageFor(profileSchema, { name: 'A', surname: 'B', contactNumber: '' }, 'contactNumber')).toBe(
      'Contact Number is a required field.',
    );
    expect(messageFor(profileSchema, { name: 'A', surname: 'B', contactNumber: '123' }, 'contactNumber')).toBe(
      'Invalid phone number',
    );
    expect(profileSchema.safeParse({ name: 'A', surname: 'B', contactNumber: '082 123 4567' }).success).toBe(true);
    expect(messageFor(profileSchema, { name: 'x'.repeat(31), surname: 'B', contactNumber: '0821234567' }, 'name')).toBe(
      'Maximum characters reached',
    );
  });
  it("saves phone numbers as '+{country code} {national number}'", () => {
    expect(formatContactNumber('082 123 4567')).toBe('+27 821234567');
    expect(formatContactNumber('+44 20 7946 0958')).toBe('+44 2079460958');
    expect(formatContactNumber('nonsense')).toBeNull();
  });
  it('takes a number typed in national or international form next to the chosen country', () => {
    // What the phone input sends: the chosen country and whatever was typed beside it.
    expect(contactNumberFromInput('ZA', '082 555 1234')).toBe('+27 825551234');
    expect(contactNumberFromInput('ZA', '+27 82 555 1234')).toBe('+27 825551234');
    expect(contactNumberFromInput('ZA', '+27 082 555 1234')).toBe('+27 825551234');
    expect(contactNumberFromInput('GB', '+44 20 7946 0958')).toBe('+44 2079460958');
    expect(contactNumberFromInput('GB', '020 7946 0958')).toBe('+44 2079460958');
    expect(contactNumberFromInput('ZA', '+44 20 7946 0958')).toBe('+44 2079460958');
    expect(contactNumberFromInput('GB', '0044 20 7946 0958')).toBe('+44 2079460958');
    expect(contactNumberFromInput('ZA', '')).toBe('');
    for (const [country, typed] of [
      ['ZA', '+27 82 555 1234'],
      ['GB', '+44 20 7946 0958'],
      ['GB', '020 7946 0958'],
    ] as const) {
      expect(
        profileSchema.safeParse({ name: 'A', surname: 'B', contactNumber: contactNumberFromInput(country, typed) })
          .success,
      ).toBe(true);
    }
    // Not a number in either form: still refused with the spec's message.
    expect(
      messageFor(
        profileSchema,
        { name: 'A', surname: 'B', contactNumber: contactNumberFromInput('ZA', '+27 12') },
        'contactNumber',
      ),
    ).toBe('Invalid phone number');
    expect(
      messageFor(
        profileSchema,
        { name: 'A', surname: 'B', contactNumber: contactNumberFromInput('GB', 'abc') },
        'contactNumber',
      ),
    ).toBe('Invalid phone number');
  });
  it('requires a company name of at most 30', () => {
    expect(companySchema.safeParse({ name: 'Acme' }).success).toBe(true);
    expect(messageFor(companySchema, { name: 'x'.repeat(31) }, 'name')).toBe('Maximum characters reached');
  });
  it('has the feedback messages', () => {
    expect(messageFor(feedbackSchema, { name: '', email: 'a@b.co', comment: 'c' }, 'name')).toBe(
      'Name is a required field.',
    );
    expect(messageFor(feedbackSchema, { name: 'n', email: 'bad', comment: 'c' }, 'email')).toBe('Invalid email');
    expect(messageFor(feedbackSchema, { name: 'n', email: '', comment: 'c' }, 'email')).toBe(
      'Email is a required field.',
    );
    expect(messageFor(feedbackSchema, { name: 'n', email: 'a@b.co', comment: ' ' }, 'comment')).toBe(
      'Comment is a required field.',
    );
    expect(feedbackSchema.parse({ name: ' n ', email: ' a@b.co ', comment: ' c ' })).toEqual({
      name: 'n',
      email: 'a@b.co',
      comment: 'c',
    });
  });
});
