/**
 * Webhook endpoints' calls: the add/edit form (the server's refusal on its field; a new endpoint's secret shown once),
 * one endpoint's actions (reveal its secret, "Send test event", enable/disable), rotating the signing secret, and
 * deleting an endpoint (a confirmed removal).
 */
import { useEffect, useState, type RefObject } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useClient, useMutation } from 'urql';
import type { z } from 'zod';
import { describeFailure } from '../../graphql/errors.js';
import { shouldShow } from '../../ui/form-field.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { useConfirmedRemoval, type Removal } from './confirm-removal.js';
import {
  EndpointSecretQuery,
  WebhookEndpointCreateMutation,
  WebhookEndpointDeleteMutation,
  WebhookEndpointRotateSecretMutation,
  WebhookEndpointSendTestMutation,
  WebhookEndpointUpdateMutation,
} from './developers-operations.js';
import { DEVELOPER_TEXTS, endpointSchema, serverField, type WebhookEvent } from './developer-rules.js';

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

/** The add/edit dialog's form: reset from the endpoint each time the dialog opens; a new endpoint's secret after. */
export function useEndpointForm(o: {
  open: boolean;
  endpoint: Endpoint | null;
  onSaved: () => void;
  onClose: () => void;
}) {
  const { open, endpoint } = o;
  const [, create] = useMutation(WebhookEndpointCreateMutation);
  const [, update] = useMutation(WebhookEndpointUpdateMutation);
  const notify = useSnackbar();
  const [failure, setFailure] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
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
  const close = () => {
    setFailure(null);
    setSecret(null);
    o.onClose();
  };
  const submit = handleSubmit(async (values) => {
    setFailure(null);
    const input = { url: values.url, description: values.description, events: values.events };
    const r = endpoint ? await update({ input: { id: endpoint.id, ...input } }) : await create({ input });
    if (r.error || !r.data) {
      const f = serverField(r.error, ['url', 'events', 'description'] as const);
      if (f) setError(f.field, { message: f.message });
      else setFailure(describeFailure(r.error));
      return;
    }
    o.onSaved();
    if (r.data && 'webhookEndpointCreate' in r.data) {
      setSecret(r.data.webhookEndpointCreate.secret);
      return;
    }
    notify('success', DEVELOPER_TEXTS.endpointSaved);
    close();
  });
  return {
    register,
    submit,
    close,
    submitting: formState.isSubmitting,
    /** A field's error once the form says it may be shown. */
    errorOf: (n: keyof Values) => (shouldShow(n, formState) ? formState.errors[n]?.message : undefined),
    eventsError:
      shouldShow('events', formState) || formState.isSubmitted ? formState.errors.events?.message : undefined,
    failure,
    secret,
  };
}

/** "Rotate secret": the confirmation's busy and failure, then the new secret. */
export function useRotateSecret(endpoint: Endpoint | null) {
  const [, rotate] = useMutation(WebhookEndpointRotateSecretMutation);
  const [secret, setSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  return {
    secret,
    busy,
    failure,
    clear: () => {
      setSecret(null);
      setFailure(null);
    },
    confirm: async () => {
      if (!endpoint) return;
      setBusy(true);
      const r = await rotate({ id: endpoint.id });
      setBusy(false);
      if (r.error || !r.data) return setFailure(describeFailure(r.error));
      setSecret(r.data.webhookEndpointRotateSecret.secret);
    },
  };
}

/** One endpoint card's own calls; `onTestSent` once a test event is queued (the delivery log reads again). */
export function useEndpointActions(endpoint: Endpoint, onChanged: () => void, onTestSent: () => void) {
  const client = useClient();
  const notify = useSnackbar();
  const [, sendTest] = useMutation(WebhookEndpointSendTestMutation);
  const [, update] = useMutation(WebhookEndpointUpdateMutation);
  const [secret, setSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState<'reveal' | 'test' | 'toggle' | null>(null);

  const reveal = async () => {
    setBusy('reveal');
    const r = await client.query(EndpointSecretQuery, {}, { requestPolicy: 'network-only' }).toPromise();
    setBusy(null);
    const found = r.data?.webhookEndpoints.find((e) => e.id === endpoint.id)?.secret;
    if (!found) return notify('error', describeFailure(r.error));
    setSecret(found);
  };
  const test = async () => {
    setBusy('test');
    const r = await sendTest({ id: endpoint.id });
    setBusy(null);
    if (r.error) return notify('error', describeFailure(r.error));
    notify('success', DEVELOPER_TEXTS.testSent);
    onTestSent();
  };
  const toggle = async () => {
    setBusy('toggle');
    const r = await update({ input: { id: endpoint.id, enabled: !endpoint.enabled } });
    setBusy(null);
    if (r.error) return notify('error', describeFailure(r.error));
    notify('success', endpoint.enabled ? DEVELOPER_TEXTS.endpointDisabled : DEVELOPER_TEXTS.endpointEnabled);
    onChanged();
  };
  return { secret, hide: () => setSecret(null), busy, reveal, test, toggle };
}

/** "Delete" with its confirmation; the section heading takes focus once the card is gone. */
export function useDeleteEndpoint(
  endpoints: readonly Endpoint[],
  heading: RefObject<HTMLElement | null>,
  onChanged: () => void,
): Removal<Endpoint> {
  const [, remove] = useMutation(WebhookEndpointDeleteMutation);
  return useConfirmedRemoval({
    items: endpoints,
    heading,
    remove: (e) => remove({ id: e.id }),
    doneText: DEVELOPER_TEXTS.endpointDeleted,
    onChanged,
  });
}
