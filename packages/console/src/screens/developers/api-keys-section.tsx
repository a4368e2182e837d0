/**
 * API keys: the list, "Create API key" (the secret shown once, in the same dialog) and "Revoke" with a
 * confirmation.
 */
import { useRef, useState } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { FormFailure } from '../../ui/form-dialog.js';
import { FormField } from '../../ui/form-field.js';
import { DEVELOPER_TEXTS, dateOnly, dateTime } from './developer-rules.js';
import { SecretOnceDialog } from './secret-field.js';
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
  const close = () => {
    clear();
    onClose();
  };
  return (
    <SecretOnceDialog
      open={open}
      label={{ before: 'Create API key', after: 'Your new API key' }}
      secret={secret}
      secretLabel="API key"
      secretNote={DEVELOPER_TEXTS.keyShownOnce}
      busy={submitting}
      action={{ label: 'Create', variant: 'primary', run: () => void submit() }}
      onClose={close}
    >
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
    </SecretOnceDialog>
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
