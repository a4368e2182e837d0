/** Sign-up (accounts §2, §5): every field and message, invite/referral parameters, auto login on success. */
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useMutation } from 'urql';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { ERROR_CODES, ERROR_TEXTS, LOGIN_METHODS, formatContactNumber, signupFormSchema, type SignupFormInput, safeSessionStorage } from '@roomwalk/shared';
import { UserRegisterMutation } from './auth-operations.js';
import { failureCode, fieldErrors, serverMessage } from '../../graphql/errors.js';
import { passwordLogin } from '../../network/auth-api.js';
import { GoogleButton, IfGoogleConfigured } from '../../ui/google-button.js';
import { useSessionStore } from '../../session/session-context.js';
import { Dialog } from '../../ui/dialog.js';
import { FormField, shouldShow } from '../../ui/form-field.js';
import { HumanCheck } from '../../ui/human-check.js';
import { PhoneInput } from '../../ui/phone-input.js';
import { TermsDocument } from '../legal/terms-document.js';
import { AuthFailureDialog } from './auth-failure-dialog.js';
import { AuthLayout } from './auth-layout.js';
import { hasSignupParams, readSignupParams, stripSignupParams, type SignupParams } from './signup-params.js';

export type SignupStatus = 'idle' | 'loading' | 'success' | 'error';
type Values = Omit<SignupFormInput, 'acceptedTerms'> & { acceptedTerms: boolean };

const SERVER_FIELD: Record<string, keyof Values> = {
  username: 'email',
  name: 'firstname',
  surname: 'surname',
  password: 'password',
  contactNumber: 'contactNumber',
};

export default function SignupPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const store = useSessionStore();
  const [params] = useState<SignupParams>(() => readSignupParams(location.search));
  const [status, setStatus] = useState<SignupStatus>('idle');
  const [failure, setFailure] = useState<{ message: string; usernameTaken: boolean } | null>(null);
  const [termsOpen, setTermsOpen] = useState(false);
  const [, registerUser] = useMutation(UserRegisterMutation);

  const { register, control, handleSubmit, formState, setValue, setError, watch } = useForm<Values>({
    resolver: zodResolver(signupFormSchema) as never,
    mode: 'onTouched',
    defaultValues: { email: (params.inviteToken && params.email) || '', firstname: '', surname: '', contactNumber: '', password: '', confirmPassword: '', acceptedTerms: false, turnstileToken: '' },
  });
  const show = (n: keyof Values) => (shouldShow(n, formState) ? formState.errors[n]?.message : undefined);

  // Read once, then take them out of the address bar.
  useEffect(() => {
    if (hasSignupParams(location.search)) navigate({ pathname: location.pathname, search: stripSignupParams(location.search) }, { replace: true });
  }, [location.pathname, location.search, navigate]);

  const onSubmit = handleSubmit(async (raw) => {
    const values = signupFormSchema.parse(raw);
    setStatus('loading');
    const contact = values.contactNumber ? (formatContactNumber(values.contactNumber) ?? values.contactNumber) : null;
    const result = await registerUser({
      input: {
        username: values.email,
        password: values.password,
        inviteToken: params.inviteToken,
        referredBy: params.referredBy,
        name: values.firstname,
        surname: values.surname,
        contactNumber: contact,
        turnstileToken: values.turnstileToken,
        acceptedTerms: true,
      },
    });
    if (result.error) {
      setStatus('error');
      const code = failureCode(result.error);
      for (const [field, message] of Object.entries(fieldErrors(result.error))) {
        const name = SERVER_FIELD[field];
        if (name) setError(name, { message });
      }
      const usernameTaken = code === ERROR_CODES.USERNAME_TAKEN;
      setFailure({
        message: usernameTaken ? ERROR_TEXTS.usernameTaken : (serverMessage(result.error) ?? ERROR_TEXTS.signupFailed),
        usernameTaken,
      });
      return;
    }
    safeSessionStorage().removeItem('roomwalk.signup-params');
    setStatus('success');
    try {
      const token = await passwordLogin(values.email, values.password, values.turnstileToken);
      if (store.login(token, LOGIN_METHODS.roomwalk)) {
        navigate('/', { replace: true });
        return;
      }
    } catch {
      /* fall back to the login screen below */
    }
    navigate('/login', { replace: true });
  });

  return (
    <AuthLayout title="Sign up">
      <form className="reserve-errors" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Sign up">
        <FormField label="E-mail" type="email" autoComplete="email" error={show('email')} {...register('email')} />
        <FormField label="Firstname" autoComplete="given-name" error={show('firstname')} {...register('firstname')} />
        <FormField label="Surname" autoComplete="family-name" error={show('surname')} {...register('surname')} />
        <Controller
          control={control}
          name="contactNumber"
          render={({ field }) => <PhoneInput label="Contact Number" name={field.name} value={field.value ?? ''} onChange={field.onChange} onBlur={field.onBlur} error={show('contactNumber')} />}
        />
        <FormField label="Password" type="password" autoComplete="new-password" error={show('password')} {...register('password')} />
        <FormField label="Re-enter password" type="password" autoComplete="new-password" error={show('confirmPassword')} {...register('confirmPassword')} />
        <HumanCheck onToken={(t) => setValue('turnstileToken', t, { shouldValidate: formState.isSubmitted })} />
        {show('turnstileToken') ? (
          <p className="field-error" role="alert">
            {show('turnstileToken')}
          </p>
        ) : null}
        <div className="checkbox">
          <input id="accept-terms" type="checkbox" aria-describedby={show('acceptedTerms') ? 'accept-terms-error' : undefined} {...register('acceptedTerms')} />
          <label htmlFor="accept-terms">Accept Terms &amp; Conditions</label>
          <button type="button" className="link-button" onClick={() => setTermsOpen(true)}>
            Read the terms
          </button>
        </div>
        {show('acceptedTerms') ? (
          <p id="accept-terms-error" className="field-error" role="alert">
            {show('acceptedTerms')}
          </p>
        ) : null}
        <SlButton type="submit" variant="primary" className="full-width" loading={status === 'loading' || status === 'success'}>
          Sign up
        </SlButton>
        <button type="submit" hidden />
      </form>
      {/* Only when Google sign-in is configured on the server (issue 16 item 15). */}
      <IfGoogleConfigured>
        {/* biome-ignore lint/a11y/useSemanticElements: an <hr> cannot hold the "or" text this divider shows */}
        <div className="divider-or" role="separator">
          or
        </div>
        <GoogleButton
          label="Sign up with Google"
          gToken={watch('turnstileToken') || params.gToken || ''}
          inviteToken={params.inviteToken}
          referredBy={params.referredBy}
          onError={(message) => setFailure({ message, usernameTaken: false })}
        />
      </IfGoogleConfigured>
      <nav className="links" aria-label="Account links">
        <span>
          Already have an account? <Link to="/login">Log in</Link>
        </span>
      </nav>
      <Dialog
        open={termsOpen}
        label="Terms & Conditions"
        fullscreen
        onClose={() => setTermsOpen(false)}
        footer={
          <SlButton variant="primary" onClick={() => setTermsOpen(false)}>
            Close
          </SlButton>
        }
      >
        <TermsDocument headingLevel={3} />
      </Dialog>
      <AuthFailureDialog
        message={failure?.message ?? null}
        onClose={() => setFailure(null)}
        extra={
          failure?.usernameTaken ? (
            <p>
              <Link to="/password/reset/request">Forgot Password</Link>
            </p>
          ) : null
        }
      />
    </AuthLayout>
  );
}
