/**
 * A labelled native text field whose error shows when the field was touched or a submit was attempted.
 */
import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  /** Show the error (touched or submitted). */
  showError?: boolean;
  hint?: ReactNode;
  multiline?: false;
}

export const FormField = forwardRef<HTMLInputElement, FormFieldProps>(function FormField(
  { label, error, showError = true, hint, id, className, ...input },
  ref,
) {
  const auto = useId();
  const inputId = id ?? auto;
  const visibleError = showError && error ? error : undefined;
  return (
    <div className={['field', className ?? ''].join(' ').trim()}>
      <label htmlFor={inputId}>{label}</label>
      <input
        ref={ref}
        id={inputId}
        aria-invalid={visibleError ? true : undefined}
        aria-describedby={visibleError ? `${inputId}-error` : hint ? `${inputId}-hint` : undefined}
        {...input}
      />
      {hint && !visibleError ? (
        <div id={`${inputId}-hint`} className="field-hint">
          {hint}
        </div>
      ) : null}
      {visibleError ? (
        <div id={`${inputId}-error`} className="field-error" role="alert">
          {visibleError}
        </div>
      ) : null}
    </div>
  );
});

export interface TextAreaFieldProps extends React.TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string;
  showError?: boolean;
}

export const TextAreaField = forwardRef<HTMLTextAreaElement, TextAreaFieldProps>(function TextAreaField(
  { label, error, showError = true, id, ...area },
  ref,
) {
  const auto = useId();
  const areaId = id ?? auto;
  const visibleError = showError && error ? error : undefined;
  return (
    <div className="field">
      <label htmlFor={areaId}>{label}</label>
      <textarea
        ref={ref}
        id={areaId}
        aria-invalid={visibleError ? true : undefined}
        aria-describedby={visibleError ? `${areaId}-error` : undefined}
        {...area}
      />
      {visibleError ? (
        <div id={`${areaId}-error`} className="field-error" role="alert">
          {visibleError}
        </div>
      ) : null}
    </div>
  );
});

/** Whether a field's error should show: touched, or a submit was attempted. */
export function shouldShow(
  name: string,
  state: { touchedFields: Partial<Record<string, unknown>>; isSubmitted: boolean; submitCount: number },
): boolean {
  return !!state.touchedFields[name] || state.isSubmitted || state.submitCount > 0;
}
