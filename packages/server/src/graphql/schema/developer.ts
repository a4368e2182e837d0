/** APIs & Webhooks (docs/api.md): API keys and webhook endpoints on the company, for its admins on Pro. */
import { resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { builder } from '../builder.js';
import { decodeTypedId, encodeTypedId, isUuid } from '../../core/ids.js';
import { badInput, notFound } from '../errors.js';
import { requireAuth } from '../guards.js';
import { PAGE_SIZES } from '../limits.js';
import { CompanyRef } from './accounts.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../../services/developer/api-keys.js';
import type { ApiKeyRow, WebhookDeliveryRow, WebhookEndpointRow } from '../../db/tables/developer.js';
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  replayDelivery,
  revealEndpointSecret,
  rotateEndpointSecret,
  sendTestEvent,
  updateEndpoint,
} from '../../services/developer/webhook-endpoints.js';
import { WEBHOOK_EVENT_TYPES } from '../../services/developer/webhook-events.js';

const KINDS = { key: 'ApiKey', endpoint: 'WebhookEndpoint', delivery: 'WebhookDelivery' } as const;
const NOT_FOUND_TEXTS = {
  key: 'This API key was not found.',
  endpoint: 'This webhook endpoint was not found.',
  delivery: 'This delivery was not found.',
} as const;
const encode = (kind: keyof typeof KINDS, id: string) => encodeTypedId(KINDS[kind], id);
const decode = (kind: keyof typeof KINDS, globalId: string): string =>
  decodeTypedId(KINDS[kind], globalId, NOT_FOUND_TEXTS[kind]);

const ApiKeyRef = builder.objectRef<ApiKeyRow>('ApiKey').implement({
  description:
    'A secret an integration sends as `Authorization: Bearer rw_live_…`; only its prefix is shown after creation.',
  fields: (t) => ({
    id: t.id({ resolve: (k) => encode('key', k.id) }),
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix', {
      description: 'The first characters of the secret, to recognise it (e.g. rw_live_AbCd).',
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (k) => k.created_at }),
    lastUsedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Updated at most once a minute.',
      resolve: (k) => k.last_used_at,
    }),
  }),
});

const ApiKeyCreatePayload = builder.objectRef<{ apiKey: ApiKeyRow; secret: string }>('ApiKeyCreatePayload').implement({
  fields: (t) => ({
    apiKey: t.field({ type: ApiKeyRef, resolve: (p) => p.apiKey }),
    secret: t.exposeString('secret', { description: 'The key itself. Shown only here: store it now.' }),
  }),
});

const WebhookEventTypeEnum = builder.enumType('WebhookEventType', {
  description: 'Events a webhook endpoint can receive (docs/api.md has an example payload of each).',
  values: Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((e) => [e.toUpperCase().replace('.', '_'), { value: e, description: `\`${e}\`` }]),
  ) as Record<string, { value: string }>,
});

const WebhookEndpointRef = builder.objectRef<WebhookEndpointRow>('WebhookEndpoint').implement({
  fields: (t) => ({
    id: t.id({ resolve: (e) => encode('endpoint', e.id) }),
    url: t.exposeString('url'),
    description: t.exposeString('description'),
    events: t.field({ type: [WebhookEventTypeEnum], resolve: (e) => e.events }),
    enabled: t.exposeBoolean('enabled'),
    disabledReason: t.exposeString('disabled_reason', { nullable: true }),
    createdAt: t.field({ type: 'DateTime', resolve: (e) => e.created_at }),
    secret: t.string({
      description: 'The signing secret (whsec_…), for an admin who chooses to reveal it.',
      resolve: (e, _a, ctx) => revealEndpointSecret(ctx.services, requireAuth(ctx), e.id),
    }),
  }),
});

const WebhookEndpointSecretPayload = builder
  .objectRef<{ endpoint: WebhookEndpointRow; secret: string }>('WebhookEndpointSecretPayload')
  .implement({
    fields: (t) => ({
      endpoint: t.field({ type: WebhookEndpointRef, resolve: (p) => p.endpoint }),
      secret: t.exposeString('secret', {
        description: 'The signing secret: verify each delivery with it (Standard Webhooks).',
      }),
    }),
  });

const DeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  values: ['PENDING', 'SUCCEEDED', 'FAILED'] as const,
});

type DeliveryModel = WebhookDeliveryRow & { event_type: string };
const WebhookDeliveryRef = builder.objectRef<DeliveryModel>('WebhookDelivery').implement({
  fields: (t) => ({
    id: t.id({ resolve: (d) => encode('delivery', d.id) }),
    eventId: t.id({
      description: 'The `webhook-id` the receiver saw (the same for every attempt and replay of an event).',
      resolve: (d) => `evt_${d.event_id}`,
    }),
    eventType: t.exposeString('event_type'),
    attempt: t.exposeInt('attempt'),
    status: t.field({ type: DeliveryStatusEnum, resolve: (d) => d.status }),
    statusCode: t.exposeInt('status_code', { nullable: true }),
    durationMs: t.exposeInt('duration_ms', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
    responseExcerpt: t.exposeString('response_excerpt', {
      nullable: true,
      description: 'The first 1 KB of the answer.',
    }),
    nextRetryAt: t.field({ type: 'DateTime', nullable: true, resolve: (d) => d.next_retry_at }),
    createdAt: t.field({ type: 'DateTime', resolve: (d) => d.created_at }),
  }),
});

builder.objectField(CompanyRef, 'apiKeys', (t) =>
  t.field({
    type: [ApiKeyRef],
    description: "The company's API keys (not revoked); company admins on Pro or the Offline License only.",
    resolve: (company, _a, ctx) => {
      const auth = requireAuth(ctx);
      if (auth.companyId !== company.id) throw notFound();
      return listApiKeys(ctx.services, auth);
    },
  }),
);

builder.queryFields((t) => ({
  webhookEndpoints: t.field({
    type: [WebhookEndpointRef],
    description: "The signed-in admin's company's webhook endpoints (Pro or the Offline License).",
    resolve: (_r, _a, ctx) => listEndpoints(ctx.services, requireAuth(ctx)),
  }),
  webhookDeliveries: t.connection(
    {
      type: WebhookDeliveryRef,
      description: 'The delivery log of one endpoint, newest first: one entry per attempt.',
      args: { endpointId: t.arg.id({ required: true }) },
      resolve: (_r, args, ctx) => {
        const auth = requireAuth(ctx);
        const endpointId = decode('endpoint', args.endpointId);
        if (args.last != null || args.before != null)
          throw badInput('The delivery log pages forward only: use first and after.');
        return resolveCursorConnection(
          {
            args,
            ...PAGE_SIZES['Query.webhookDeliveries'],
            toCursor: (d: DeliveryModel) => `${new Date(d.created_at).toISOString()}|${d.id}`,
          },
          async ({ after, limit }: ResolveCursorConnectionArgs) => {
            let page: { createdAt: Date; id: string } | undefined;
            if (after) {
              const [at, id] = after.split('|');
              const when = new Date(at ?? '');
              if (!id || !isUuid(id) || Number.isNaN(when.getTime())) throw badInput('Not a valid cursor.');
              page = { createdAt: when, id };
            }
            return listDeliveries(ctx.services, auth, endpointId, { first: limit, after: page });
          },
        );
      },
    },
    { name: 'WebhookDeliveryConnection' },
    { name: 'WebhookDeliveryEdge' },
  ),
}));

const ApiKeyCreateInput = builder.inputType('ApiKeyCreateInput', {
  fields: (t) => ({ name: t.string({ required: true }) }),
});
const WebhookEndpointCreateInput = builder.inputType('WebhookEndpointCreateInput', {
  fields: (t) => ({
    url: t.string({ required: true }),
    events: t.field({ type: [WebhookEventTypeEnum], required: true }),
    description: t.string(),
  }),
});
const WebhookEndpointUpdateInput = builder.inputType('WebhookEndpointUpdateInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    url: t.string(),
    events: t.field({ type: [WebhookEventTypeEnum] }),
    description: t.string(),
    enabled: t.boolean({ description: 'Enable a disabled endpoint again (or pause one).' }),
  }),
});

builder.mutationFields((t) => ({
  apiKeyCreate: t.field({
    type: ApiKeyCreatePayload,
    description: 'Creates an API key; the secret is answered only here.',
    args: { input: t.arg({ type: ApiKeyCreateInput, required: true }) },
    resolve: (_r, { input }, ctx) => createApiKey(ctx.services, requireAuth(ctx), { name: input.name }),
  }),
  apiKeyRevoke: t.field({
    type: ApiKeyRef,
    description: 'Revokes a key: it stops working at once on every API node.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => revokeApiKey(ctx.services, requireAuth(ctx), decode('key', args.id)),
  }),
  webhookEndpointCreate: t.field({
    type: WebhookEndpointSecretPayload,
    args: { input: t.arg({ type: WebhookEndpointCreateInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      createEndpoint(ctx.services, requireAuth(ctx), {
        url: input.url,
        events: input.events,
        description: input.description ?? null,
      }),
  }),
  webhookEndpointUpdate: t.field({
    type: WebhookEndpointRef,
    args: { input: t.arg({ type: WebhookEndpointUpdateInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      updateEndpoint(ctx.services, requireAuth(ctx), {
        id: decode('endpoint', input.id),
        url: input.url ?? null,
        events: input.events ?? null,
        description: input.description ?? null,
        enabled: input.enabled ?? null,
      }),
  }),
  webhookEndpointDelete: t.field({
    type: 'Boolean',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await deleteEndpoint(ctx.services, requireAuth(ctx), decode('endpoint', args.id));
      return true;
    },
  }),
  webhookEndpointRotateSecret: t.field({
    type: WebhookEndpointSecretPayload,
    description: 'A new signing secret; deliveries are signed with it from now on.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => rotateEndpointSecret(ctx.services, requireAuth(ctx), decode('endpoint', args.id)),
  }),
  webhookEndpointSendTest: t.field({
    type: 'ID',
    description: 'Sends a `webhook.test` event to this endpoint now; answers the delivery id (see webhookDeliveries).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) =>
      encode('delivery', await sendTestEvent(ctx.services, requireAuth(ctx), decode('endpoint', args.id))),
  }),
  webhookDeliveryReplay: t.field({
    type: 'ID',
    description: "Sends a logged delivery's event again (same webhook-id); answers the new delivery id.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) =>
      encode('delivery', await replayDelivery(ctx.services, requireAuth(ctx), decode('delivery', args.id))),
  }),
}));
