/**
 * Sign-up: every field and message, invite/referral parameters, auto login on success (useSignup).
 */
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { Link } from 'react-router-dom';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { GoogleButton, IfGoogleConfigured } from '../../ui/google-button.js';
import { Dialog } from '../../ui/dialog.js';
import { FormField } from '../../ui/form-field.js';
import { HumanCheck } from '../../ui/human-check.js';
import { PhoneInput } from '../../ui/phone-input.js';
import { TermsDocument } from '../legal/terms-document.js';
import { AuthFailureDialog } from './auth-failure-dialog.js';
import { AuthLayout } from './auth-layout.js';
import { useSignup } from './use-signup.js';

function TermsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      label="Terms & Conditions"
      fullscreen
      onClose={onClose}
      footer={
        <SlButton variant="primary" onClick={onClose}>
          Close
        </SlButton>
      }
    >
      <TermsDocument headingLevel={3} />
    </Dialog>
  );
}

export default function SignupPage() {
  const { form, show, params, submitting, failure, setFailure, onSubmit } = useSignup();
  const { register, control, setValue, watch, formState } = form;
  const [termsOpen, setTermsOpen] = useState(false);

  return (
    <AuthLayout title="Sign up">
      <form className="reserve-errors" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Sign up">
        <FormField label="E-mail" type="email" autoComplete="email" error={show('email')} {...register('email')} />
        <FormField label="Firstname" autoComplete="given-name" error={show('firstname')} {...register('firstname')} />
        <FormField label="Surname" autoComplete="family-name" error={show('surname')} {...register('surname')} />
        <Controller
          control={control}
          name="contactNumber"
          render={({ field }) => (
            <PhoneInput
              label="Contact Number"
              name={field.name}
              value={field.value ?? ''}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={show('contactNumber')}
            />
          )}
        />
        <FormField
          label="Password"
          type="password"
          autoComplete="new-password"
          error={show('password')}
          {...register('password')}
        />
        <FormField
          label="Re-enter password"
          type="password"
          autoComplete="new-password"
          error={show('confirmPassword')}
          {...register('confirmPassword')}
        />
        <HumanCheck onToken={(t) => setValue('turnstileToken', t, { shouldValidate: formState.isSubmitted })} />
        {show('turnstileToken') ? (
          <p className="field-error" role="alert">
            {show('turnstileToken')}
          </p>
        ) : null}
        <div className="checkbox">
          <input
            id="accept-terms"
            type="checkbox"
            aria-describedby={show('acceptedTerms') ? 'accept-terms-error' : undefined}
            {...register('acceptedTerms')}
          />
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
        <SlButton type="submit" variant="primary" className="full-width" loading={submitting}>
          Sign up
        </SlButton>
        <button type="submit" hidden />
      </form>
      {/* Only when Google sign-in is configured on the server. */}
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
      <TermsDialog open={termsOpen} onClose={() => setTermsOpen(false)} />
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
