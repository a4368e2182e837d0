/**
 * Adding or editing a webhook endpoint: URL, description, one checkbox per event; a new endpoint's secret is shown
 * once.
 */
import { useId } from 'react';
import { FormFailure } from '../../ui/form-dialog.js';
import { FormField, TextAreaField } from '../../ui/form-field.js';
import { DEVELOPER_TEXTS, WEBHOOK_EVENTS, eventLabel } from './developer-rules.js';
import { SecretOnceDialog } from './secret-field.js';
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
  const eventsId = useId();
  const title = endpoint ? 'Edit endpoint' : 'Add endpoint';
  return (
    <SecretOnceDialog
      open={open}
      label={{ before: title, after: 'Endpoint added' }}
      secret={secret}
      secretLabel="Signing secret"
      secretNote={DEVELOPER_TEXTS.secretShownOnce}
      busy={submitting}
      action={{ label: endpoint ? 'Save' : 'Add endpoint', variant: 'primary', run: () => void submit() }}
      onClose={close}
    >
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
    </SecretOnceDialog>
  );
}
