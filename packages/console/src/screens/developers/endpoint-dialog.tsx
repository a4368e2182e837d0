/**
 * Adding or editing a webhook endpoint: URL, description, one checkbox per event; a new endpoint's secret is shown
 * once.
 */
import { useEffect, useId, useRef } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { Dialog } from '../../ui/dialog.js';
import { FormFailure } from '../../ui/form-dialog.js';
import { FormField, TextAreaField } from '../../ui/form-field.js';
import { DEVELOPER_TEXTS, WEBHOOK_EVENTS, eventLabel } from './developer-rules.js';
import { SecretField } from './secret-field.js';
import { useEndpointForm, type Endpoint } from './use-webhook-endpoints.js';

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
  const { register, submit, close, submitting, errorOf, eventsError, failure, secret } = useEndpointForm({
    open,
    endpoint,
    onSaved,
    onClose,
  });
  const secretInput = useRef<HTMLInputElement>(null);
  const eventsId = useId();
  useEffect(() => {
    if (secret) secretInput.current?.focus();
  }, [secret]);
  const title = secret ? 'Endpoint added' : endpoint ? 'Edit endpoint' : 'Add endpoint';
  return (
    <Dialog
      open={open}
      label={title}
      onClose={close}
      persistent={submitting}
      footer={
        secret ? (
          <SlButton variant="primary" onClick={close}>
            Done
          </SlButton>
        ) : (
          <>
            <SlButton onClick={close}>Cancel</SlButton>
            <SlButton variant="primary" loading={submitting} onClick={() => void submit()}>
              {endpoint ? 'Save' : 'Add endpoint'}
            </SlButton>
          </>
        )
      }
    >
      {secret ? (
        <SecretField ref={secretInput} label="Signing secret" value={secret} note={DEVELOPER_TEXTS.secretShownOnce} />
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate aria-label={title}>
          <FormField
            label="Endpoint URL"
            type="url"
            inputMode="url"
            autoComplete="url"
            placeholder="https://example.com/roomwalk-webhooks"
            spellCheck={false}
            error={errorOf('url')}
            {...register('url')}
          />
          <TextAreaField
            label="Description (optional)"
            rows={2}
            error={errorOf('description')}
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
