/**
 * API keys: the list, "Create API key" (the secret shown once, in the same dialog) and "Revoke" with a
 * confirmation.
 */
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from 'urql';
import type { z } from 'zod';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { describeFailure } from '../../graphql/errors.js';
import { Dialog } from '../../ui/dialog.js';
import { FormFailure } from '../../ui/form-dialog.js';
import { FormField, shouldShow } from '../../ui/form-field.js';
import { ApiKeyCreateMutation, ApiKeyRevokeMutation } from './developers-operations.js';
import { DEVELOPER_TEXTS, apiKeySchema, dateOnly, dateTime, serverField } from './developer-rules.js';
import { SecretField } from './secret-field.js';
import { ConfirmRemovalDialog, useConfirmedRemoval } from './confirm-removal.js';

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt?: string | null;
}

type Values = z.input<typeof apiKeySchema>;

function CreateKeyDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const [, create] = useMutation(ApiKeyCreateMutation);
  const [failure, setFailure] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const secretInput = useRef<HTMLInputElement>(null);
  const { register, handleSubmit, formState, reset, setError } = useForm<Values>({
    resolver: zodResolver(apiKeySchema),
    mode: 'onTouched',
    defaultValues: { name: '' },
  });
  const close = () => {
    reset({ name: '' });
    setFailure(null);
    setSecret(null);
    onClose();
  };
  // The form gives way to the secret in the same dialog, so focus goes to the secret (and back to the opener at the
  // end).
  useEffect(() => {
    if (secret) secretInput.current?.focus();
  }, [secret]);
  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const r = await create({ input: { name: values.name.trim() } });
    if (r.error || !r.data) {
      const f = serverField(r.error, ['name'] as const);
      if (f) setError(f.field, { message: f.message });
      else setFailure(describeFailure(r.error));
      return;
    }
    setSecret(r.data.apiKeyCreate.secret);
    onCreated();
  });
  const error = shouldShow('name', formState) ? formState.errors.name?.message : undefined;
  return (
    <Dialog
      open={open}
      label={secret ? 'Your new API key' : 'Create API key'}
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
              Create
            </SlButton>
          </>
        )
      }
    >
      {secret ? (
        <SecretField ref={secretInput} label="API key" value={secret} note={DEVELOPER_TEXTS.keyShownOnce} />
      ) : (
        <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Create API key">
          <FormField
            label="Name"
            autoComplete="off"
            hint="For example the CRM or listing site that will use it."
            error={error}
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
  const [, revoke] = useMutation(ApiKeyRevokeMutation);
  const heading = useRef<HTMLHeadingElement>(null);
  const revoking = useConfirmedRemoval({
    items: keys,
    heading,
    remove: (k) => revoke({ id: k.id }),
    doneText: DEVELOPER_TEXTS.keyRevoked,
    onChanged,
  });

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
