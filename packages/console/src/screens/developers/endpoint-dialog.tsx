/**
 * Adding or editing a webhook endpoint: URL, description, one checkbox per event; a new endpoint's secret is shown
 * once.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from 'urql';
import type { z } from 'zod';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { describeFailure } from '../../graphql/errors.js';
import { Dialog } from '../../ui/dialog.js';
import { FormFailure } from '../../ui/form-dialog.js';
import { FormField, TextAreaField, shouldShow } from '../../ui/form-field.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { WebhookEndpointCreateMutation, WebhookEndpointUpdateMutation } from './developers-operations.js';
import {
  DEVELOPER_TEXTS,
  WEBHOOK_EVENTS,
  endpointSchema,
  eventLabel,
  serverField,
  type WebhookEvent,
} from './developer-rules.js';
import { SecretField } from './secret-field.js';

export interface Endpoint {
  id: string;
  url: string;
  description: string;
  events: readonly WebhookEvent[];
  enabled: boolean;
  disabledReason?: string | null;
  createdAt: string;
}

type Values = z.input<typeof endpointSchema>;
type Output = z.output<typeof endpointSchema>;

export function EndpointDialog({
  open,
  endpoint,
  onClose,
  onSaved,
}: {
  open: boolean;
  endpoint: Endpoint | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [, create] = useMutation(WebhookEndpointCreateMutation);
  const [, update] = useMutation(WebhookEndpointUpdateMutation);
  const notify = useSnackbar();
  const [failure, setFailure] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const secretInput = useRef<HTMLInputElement>(null);
  const eventsId = useId();
  const defaults = (): Values => ({
    url: endpoint?.url ?? '',
    description: endpoint?.description ?? '',
    events: [...(endpoint?.events ?? [])],
  });
  const { register, handleSubmit, formState, reset, setError } = useForm<Values, unknown, Output>({
    resolver: zodResolver(endpointSchema),
    mode: 'onTouched',
    defaultValues: defaults(),
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is reset only when the dialog opens, not on every render
  useEffect(() => {
    if (open) reset(defaults());
    // Only when the dialog opens: a refetch while it is open must not wipe what the user typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  useEffect(() => {
    if (secret) secretInput.current?.focus();
  }, [secret]);
  const close = () => {
    setFailure(null);
    setSecret(null);
    onClose();
  };
  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const input = { url: values.url, description: values.description, events: values.events };
    const r = endpoint ? await update({ input: { id: endpoint.id, ...input } }) : await create({ input });
    if (r.error || !r.data) {
      const f = serverField(r.error, ['url', 'events', 'description'] as const);
      if (f) setError(f.field, { message: f.message });
      else setFailure(describeFailure(r.error));
      return;
    }
    onSaved();
    if (r.data && 'webhookEndpointCreate' in r.data) {
      setSecret(r.data.webhookEndpointCreate.secret);
      return;
    }
    notify('success', DEVELOPER_TEXTS.endpointSaved);
    close();
  });
  const show = (n: keyof Values) => (shouldShow(n, formState) ? formState.errors[n]?.message : undefined);
  const eventsError =
    shouldShow('events', formState) || formState.isSubmitted ? formState.errors.events?.message : undefined;
  const title = secret ? 'Endpoint added' : endpoint ? 'Edit endpoint' : 'Add endpoint';
  return (
    <Dialog
      open={open}
      label={title}
      onClose={close}
      persistent={formState.isSubmitting}
      footer={
        secret ? (
          <SlButton variant="primary" onClick={close}>
            Done
          </SlButton>
        ) : (
          <>
            <SlButton onClick={close}>Cancel</SlButton>
            <SlButton variant="primary" loading={formState.isSubmitting} onClick={() => void onSubmit()}>
              {endpoint ? 'Save' : 'Add endpoint'}
            </SlButton>
          </>
        )
      }
    >
      {secret ? (
        <SecretField ref={secretInput} label="Signing secret" value={secret} note={DEVELOPER_TEXTS.secretShownOnce} />
      ) : (
        <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label={title}>
          <FormField
            label="Endpoint URL"
            type="url"
            inputMode="url"
            autoComplete="url"
            placeholder="https://example.com/roomwalk-webhooks"
            spellCheck={false}
            error={show('url')}
            {...register('url')}
          />
          <TextAreaField
            label="Description (optional)"
            rows={2}
            error={show('description')}
            {...register('description')}
          />
          <fieldset className="event-choices" aria-describedby={eventsError ? `${eventsId}-error` : undefined}>
            <legend>Events to send</legend>
            {WEBHOOK_EVENTS.map((e) => (
              <label key={e} className="checkbox event-choice">
                <input type="checkbox" value={e} {...register('events')} />
                {eventLabel(e)}
              </label>
            ))}
            {eventsError ? (
              <div id={`${eventsId}-error`} className="field-error" role="alert">
                {eventsError}
              </div>
            ) : null}
          </fieldset>
          <FormFailure failure={failure} />
          <button type="submit" hidden />
        </form>
      )}
    </Dialog>
  );
}
