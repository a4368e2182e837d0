/**
 * API keys' calls: "Create API key" (the form, the server's refusal on its field, the secret shown once) and "Revoke"
 * (a confirmed removal).
 */
import { useState, type RefObject } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from 'urql';
import type { z } from 'zod';
import { describeFailure } from '../../graphql/errors.js';
import { shouldShow } from '../../ui/form-field.js';
import { useConfirmedRemoval, type Removal } from './confirm-removal.js';
import { ApiKeyCreateMutation, ApiKeyRevokeMutation } from './developers-operations.js';
import { DEVELOPER_TEXTS, apiKeySchema, serverField } from './developer-rules.js';

type Values = z.input<typeof apiKeySchema>;

/** The create dialog: its form, then the new key's secret in its place. */
export function useCreateApiKey(onCreated: () => void) {
  const [, create] = useMutation(ApiKeyCreateMutation);
  const [failure, setFailure] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const { register, handleSubmit, formState, reset, setError } = useForm<Values>({
    resolver: zodResolver(apiKeySchema),
    mode: 'onTouched',
    defaultValues: { name: '' },
  });
  const submit = handleSubmit(async (values) => {
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
  return {
    register,
    submit,
    submitting: formState.isSubmitting,
    nameError: shouldShow('name', formState) ? formState.errors.name?.message : undefined,
    failure,
    secret,
    /** Back to an empty form for the next time the dialog opens. */
    clear: () => {
      reset({ name: '' });
      setFailure(null);
      setSecret(null);
    },
  };
}

/** "Revoke" with its confirmation; the section heading takes focus once the row is gone. */
export function useRevokeApiKey<T extends { id: string }>(
  keys: readonly T[],
  heading: RefObject<HTMLElement | null>,
  onChanged: () => void,
): Removal<T> {
  const [, revoke] = useMutation(ApiKeyRevokeMutation);
  return useConfirmedRemoval({
    items: keys,
    heading,
    remove: (k) => revoke({ id: k.id }),
    doneText: DEVELOPER_TEXTS.keyRevoked,
    onChanged,
  });
}
