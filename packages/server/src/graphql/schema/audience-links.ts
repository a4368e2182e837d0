/**
 * Audience links (docs/access-and-privacy.md): a tour's labelled links with expiry, hidden rooms and an unbranded
 * flag, for whoever may edit the tour; the public side is `tour(tourID, access, link)` (graphql/schema/tours.ts).
 */
import { serverNow } from '../../core/clock.js';
import { encodeId, encodeTypedId } from '../../core/ids.js';
import type { AudienceLinkRow } from '../../db/tables/audience-links.js';
import {
  audienceLinkUrl,
  createAudienceLink,
  isLinkLive,
  listAudienceLinks,
  revokeAudienceLink,
  visitsByLink,
} from '../../services/audience-links/audience-links.js';
import { builder } from '../builder.js';
import { requireAuth } from '../guards.js';
import { loadBatched } from '../loaders.js';
import { LeadGateSettingsRef } from './lead-gate.js';

const AudienceLinkStatusEnum = builder.enumType('AudienceLinkStatus', {
  values: ['ACTIVE', 'EXPIRED', 'REVOKED'] as const,
});

const AudienceLinkRef = builder.objectRef<AudienceLinkRow>('AudienceLink').implement({
  description:
    'A labelled link to one tour: its own expiry, hidden rooms and unbranded flag, and the visits made through it.',
  fields: (t) => ({
    id: t.id({ resolve: (l) => encodeTypedId('AudienceLink', l.id) }),
    label: t.exposeString('label'),
    url: t.string({
      description: 'The share page of the link (its iframe is the same URL).',
      resolve: (l, _a, ctx) => audienceLinkUrl(ctx.services, l),
    }),
    token: t.exposeString('token', {
      description: "The link's `link=` value: the script tag's and React player's `audience-link`.",
    }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, resolve: (l) => l.expires_at }),
    hiddenMarkerIds: t.idList({
      description: 'The markers whose rooms the link hides.',
      resolve: (l) => l.hidden_marker_ids.map((id) => encodeId('Marker', id)),
    }),
    unbranded: t.exposeBoolean('unbranded', {
      description: 'No company logo, accent, agent card or listing link through this link.',
    }),
    status: t.field({
      type: AudienceLinkStatusEnum,
      description: "By the server's clock: REVOKED wins over EXPIRED.",
      resolve: (l, _a, ctx) =>
        l.revoked_at ? 'REVOKED' : isLinkLive(l, serverNow(ctx.services)) ? 'ACTIVE' : 'EXPIRED',
    }),
    leadGate: t.field({
      type: LeadGateSettingsRef,
      nullable: true,
      description:
        "The link's own lead form, replacing the tour's for its visitors; null: the tour's lead form applies.",
      resolve: (l) =>
        l.lead_gate_mode
          ? {
              mode: l.lead_gate_mode === 'ROOM' && !l.lead_gate_marker_id ? 'OFF' : l.lead_gate_mode,
              markerId: l.lead_gate_marker_id,
              seconds: l.lead_gate_seconds,
              approval: l.lead_gate_approval,
            }
          : null,
    }),
    revokedAt: t.field({ type: 'DateTime', nullable: true, resolve: (l) => l.revoked_at }),
    createdAt: t.field({ type: 'DateTime', resolve: (l) => l.created_at }),
    visits: t.int({
      description: 'Visits made through this link, ever.',
      resolve: (l, _a, ctx) =>
        loadBatched(ctx, 'audience link visits', (ids) => visitsByLink(ctx.services, ids), l.id, 0),
    }),
  }),
});

const AudienceLinkLeadGateInput = builder.inputType('AudienceLinkLeadGateInput', {
  fields: (t) => ({
    mode: t.string({
      required: true,
      description: 'OFF (no form through this link), ROOM (before the room of markerId) or SECONDS (after `seconds`).',
    }),
    markerId: t.id({ description: 'ROOM: the marker of a room the link shows (not its first).' }),
    seconds: t.int({ description: 'SECONDS: 5 to 3600 seconds of watching.' }),
    approval: t.boolean({ required: true, description: "After the form the visitor waits for the agent's approval." }),
  }),
});

const AudienceLinkCreateInput = builder.inputType('AudienceLinkCreateInput', {
  fields: (t) => ({
    tourId: t.id({ required: true }),
    label: t.string({
      required: true,
      description: 'What the link is for, e.g. "Buyers\' open day" (at most 60 characters).',
    }),
    expiresAt: t.field({ type: 'DateTime', description: 'When the link stops; omitted or null: never.' }),
    hiddenMarkerIds: t.idList({
      description: 'Markers of the tour whose rooms the link hides (at least one room stays).',
    }),
    unbranded: t.boolean({ description: 'Hide the company and agent branding through this link (default false).' }),
    leadGate: t.field({
      type: AudienceLinkLeadGateInput,
      description:
        "The link's own lead form, replacing the tour's for its visitors; omitted or null: the tour's applies.",
    }),
  }),
});

builder.queryFields((t) => ({
  audienceLinks: t.field({
    type: [AudienceLinkRef],
    description: "A tour's audience links, newest first, revoked ones too. The tour's owner or a company admin.",
    args: { tourId: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => listAudienceLinks(ctx.services, requireAuth(ctx), String(args.tourId)),
  }),
}));

builder.mutationFields((t) => ({
  audienceLinkCreate: t.field({
    type: AudienceLinkRef,
    description: 'Makes an audience link for a tour (its owner or a company admin).',
    args: { input: t.arg({ type: AudienceLinkCreateInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      createAudienceLink(ctx.services, requireAuth(ctx), String(input.tourId), {
        label: input.label,
        expiresAt: input.expiresAt ? input.expiresAt.toISOString() : null,
        hiddenMarkerIds: (input.hiddenMarkerIds ?? []).map(String),
        unbranded: input.unbranded ?? false,
        leadGate: input.leadGate
          ? {
              mode: input.leadGate.mode as 'OFF' | 'ROOM' | 'SECONDS',
              markerId: input.leadGate.markerId == null ? null : String(input.leadGate.markerId),
              seconds: input.leadGate.seconds ?? null,
              approval: input.leadGate.approval,
            }
          : null,
      }),
  }),
  audienceLinkRevoke: t.field({
    type: AudienceLinkRef,
    description: 'Revokes an audience link at once: it then shows the company\'s "no longer available" message.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => revokeAudienceLink(ctx.services, requireAuth(ctx), String(args.id)),
  }),
}));
