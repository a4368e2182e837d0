/**
 * The sign-up form's state and submission: invite and referral parameters read once and taken out of the address bar,
 * the server's field errors put on their fields, "Username already taken" with its Forgot Password link, and auto login
 * on success (the login screen when that fails).
 */
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocation, useNavigate } from 'react-router-dom';
import { useMutation } from 'urql';
import {
  ERROR_CODES,
  ERROR_TEXTS,
  LOGIN_METHODS,
  formatContactNumber,
  signupFormSchema,
  type SignupFormInput,
  safeSessionStorage,
} from '@roomwalk/shared';
import { failureCode, fieldErrors, serverMessage } from '../../graphql/errors.js';
import { passwordLogin } from '../../network/auth-api.js';
import { useSessionStore } from '../../session/session-context.js';
import { shouldShow } from '../../ui/form-field.js';
import { UserRegisterMutation } from './auth-operations.js';
import { hasSignupParams, readSignupParams, stripSignupParams, type SignupParams } from './signup-params.js';

type SignupStatus = 'idle' | 'loading' | 'success' | 'error';
type Values = Omit<SignupFormInput, 'acceptedTerms'> & { acceptedTerms: boolean };

/** The server's field names on the form's fields. */
const SERVER_FIELD: Record<string, keyof Values> = {
  username: 'email',
  name: 'firstname',
  surname: 'surname',
  password: 'password',
  contactNumber: 'contactNumber',
};

export function useSignup() {
  const location = useLocation();
  const navigate = useNavigate();
  const store = useSessionStore();
  const [params] = useState<SignupParams>(() => readSignupParams(location.search));
  const [status, setStatus] = useState<SignupStatus>('idle');
  const [failure, setFailure] = useState<{ message: string; usernameTaken: boolean } | null>(null);
  const [, registerUser] = useMutation(UserRegisterMutation);

  const form = useForm<Values>({
    resolver: zodResolver(signupFormSchema) as never,
    mode: 'onTouched',
    defaultValues: {
      email: (params.inviteToken && params.email) || '',
      firstname: '',
      surname: '',
      contactNumber: '',
      password: '',
      confirmPassword: '',
      acceptedTerms: false,
      turnstileToken: '',
    },
  });
  const { handleSubmit, formState, setError } = form;
  const show = (n: keyof Values) => (shouldShow(n, formState) ? formState.errors[n]?.message : undefined);

  // Read once, then take them out of the address bar.
  useEffect(() => {
    if (hasSignupParams(location.search))
      navigate({ pathname: location.pathname, search: stripSignupParams(location.search) }, { replace: true });
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
      const { token } = await passwordLogin(values.email, values.password, values.turnstileToken);
      if (store.login(token, LOGIN_METHODS.roomwalk)) {
        navigate('/', { replace: true });
        return;
      }
    } catch {
      /* fall back to the login screen below */
    }
    navigate('/login', { replace: true });
  });

  return {
    form,
    show,
    params,
    submitting: status === 'loading' || status === 'success',
    failure,
    setFailure,
    onSubmit,
  };
}
