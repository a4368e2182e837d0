/** Feedback dialog: idle, active, success (back to idle after 3 s) or idle again on cancel/close. */
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from 'urql';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { TIMINGS_MS, feedbackSchema, type FeedbackInput } from '@roomwalk/shared';
import { FeedbackSubmitMutation } from './feedback-operations.js';
import { describeFailure } from '../graphql/errors.js';
import { Dialog } from './dialog.js';
import { FormFailure } from './form-dialog.js';
import { FormField, TextAreaField, shouldShow } from './form-field.js';

export type FeedbackStatus = 'idle' | 'active' | 'success';
const EMPTY = { name: '', email: '', comment: '' };

export default function FeedbackDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [status, setStatus] = useState<FeedbackStatus>('idle');
  const [failure, setFailure] = useState<string | null>(null);
  const [, submit] = useMutation(FeedbackSubmitMutation);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const form = useForm<FeedbackInput>({
    resolver: zodResolver(feedbackSchema),
    mode: 'onTouched',
    defaultValues: EMPTY,
  });
  const { register, handleSubmit, formState, reset } = form;
  const show = (n: keyof FeedbackInput) => (shouldShow(n, formState) ? formState.errors[n]?.message : undefined);

  useEffect(() => {
    if (open && status === 'idle') setStatus('active');
  }, [open, status]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const close = () => {
    clearTimeout(timer.current);
    setStatus('idle');
    setFailure(null);
    reset(EMPTY);
    onClose();
  };

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const result = await submit({ input: values });
    if (result.error) {
      setFailure(describeFailure(result.error));
      return;
    }
    reset(EMPTY);
    setStatus('success');
    timer.current = setTimeout(close, TIMINGS_MS.feedbackSuccessReset);
  });

  return (
    <Dialog
      open={open}
      label="Feedback"
      onClose={close}
      footer={
        status === 'success' ? null : (
          <>
            <SlButton onClick={close}>Cancel</SlButton>
            <SlButton variant="primary" loading={formState.isSubmitting} onClick={() => void onSubmit()}>
              Submit
            </SlButton>
          </>
        )
      }
    >
      {status === 'success' ? (
        <p role="status">Thank you for your feedback!</p>
      ) : (
        <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Feedback form">
          <FormField label="Name" autoComplete="name" error={show('name')} {...register('name')} />
          <FormField label="Email" type="email" autoComplete="email" error={show('email')} {...register('email')} />
          <TextAreaField label="Comment" rows={4} error={show('comment')} {...register('comment')} />
          <FormFailure failure={failure} />
          <button type="submit" hidden />
        </form>
      )}
    </Dialog>
  );
}
