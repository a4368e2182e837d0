/**
 * API keys: the list, "Create API key" (the secret shown once, in the same dialog) and "Revoke" with a
 * confirmation.
 */
import { useEffect, useRef, useState } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { Dialog } from '../../ui/dialog.js';
import { FormFailure } from '../../ui/form-dialog.js';
import { FormField } from '../../ui/form-field.js';
import { DEVELOPER_TEXTS, dateOnly, dateTime } from './developer-rules.js';
import { SecretField } from './secret-field.js';
import { ConfirmRemovalDialog } from './confirm-removal.js';
import { useCreateApiKey, useRevokeApiKey } from './use-api-keys.js';

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt?: string | null;
}

function CreateKeyDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const { register, submit, submitting, nameError, failure, secret, clear } = useCreateApiKey(onCreated);
  const secretInput = useRef<HTMLInputElement>(null);
  const close = () => {
    clear();
    onClose();
  };
  // The form gives way to the secret in the same dialog, so focus goes to the secret (and back to the opener at the
  // end).
  useEffect(() => {
    if (secret) secretInput.current?.focus();
  }, [secret]);
  return (
    <Dialog
      open={open}
      label={secret ? 'Your new API key' : 'Create API key'}
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
              Create
            </SlButton>
          </>
        )
      }
    >
      {secret ? (
        <SecretField ref={secretInput} label="API key" value={secret} note={DEVELOPER_TEXTS.keyShownOnce} />
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate aria-label="Create API key">
          <FormField
            label="Name"
            autoComplete="off"
            hint="For example the CRM or listing site that will use it."
            error={nameError}
            {...register('name')}
          />
          <FormFailure failure={failure} />
          <button type="submit" hidden />
        </form>
      )}
    </Dialog>
  );
}

export function ApiKeysSection({ keys, onChanged }: { keys: readonly ApiKey[]; onChanged: () => void }) {
  const [creating, setCreating] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const revoking = useRevokeApiKey(keys, heading, onChanged);

  return (
    <section className="card section" aria-labelledby="api-keys">
      <div className="section-title">
        <h2 id="api-keys" ref={heading} tabIndex={-1}>
          API keys
        </h2>
        <SlButton variant="primary" onClick={() => setCreating(true)}>
          <SlIcon slot="prefix" name="plus-lg" />
          Create API key
        </SlButton>
      </div>
      <p className="field-hint">{DEVELOPER_TEXTS.keysIntro}</p>
      {keys.length === 0 ? (
        <p>{DEVELOPER_TEXTS.noKeys}</p>
      ) : (
        <ul className="developer-list">
          {keys.map((k) => (
            <li key={k.id} className="developer-item" data-testid="api-key">
              <div className="developer-item-main">
                <strong>{k.name}</strong>
                <code className="key-prefix" title={`Key starting ${k.prefix}`}>
                  {k.prefix}…
                </code>
                <span className="field-hint">
                  Created {dateOnly(k.createdAt)} ·{' '}
                  {k.lastUsedAt ? `Last used ${dateTime(k.lastUsedAt)}` : DEVELOPER_TEXTS.neverUsed}
                </span>
              </div>
              <SlButton variant="danger" outline onClick={() => revoking.ask(k)}>
                Revoke<span className="visually-hidden"> {k.name}</span>
              </SlButton>
            </li>
          ))}
        </ul>
      )}
      <CreateKeyDialog open={creating} onClose={() => setCreating(false)} onCreated={onChanged} />
      <ConfirmRemovalDialog removal={revoking} label="Revoke API key" action="Revoke">
        <p>
          Revoke the key “{revoking.target?.name}” ({revoking.target?.prefix}…)? Every integration using it is refused
          at once. This cannot be undone.
        </p>
      </ConfirmRemovalDialog>
    </section>
  );
}
