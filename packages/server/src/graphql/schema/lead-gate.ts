/**
 * Lead-gated rooms (docs/access-and-privacy.md, services/lead-gate/): the owner's choice in Tour Info, what the player
 * is told of the gate, the agent's approval, and the Leads list's reads.
 */
import { builder } from '../builder.js';
import { requireAuth } from '../guards.js';
import { loadBatched } from '../loaders.js';
import { TourRef } from './tour-refs.js';
import { TourLeadRef, type TourLeadModel } from './live.js';
import { encodeId } from '../../core/ids.js';
import { leadGateForCaller, leadGateSettings, setLeadGate } from '../../services/lead-gate/lead-gate.js';
import {
  approveLead,
  companyLeads,
  leadGateRows,
  revokeLeadPass,
  stoppedRoom,
} from '../../services/lead-gate/approval.js';
import { leadById } from '../../services/live/lead-reads.js';
import type { Context } from '../builder.js';

const LeadGateRef = builder
  .objectRef<{ roomName: string | null; seconds: number | null; approval: boolean; open: boolean }>('LeadGate')
  .implement({
    description:
      "The tour's lead gate as the player needs it: where the form comes, whether the agent approves, whether this caller is through it.",
    fields: (t) => ({
      roomName: t.exposeString('roomName', {
        nullable: true,
        description:
          'The room the form comes before (a room gate); its clips and the later ones are listed only once through the gate.',
      }),
      seconds: t.exposeInt('seconds', {
        nullable: true,
        description: 'Seconds of watching after which the form comes (a seconds gate).',
      }),
      approval: t.exposeBoolean('approval', {
        description: "After the form the visitor waits for the agent's approval (else goes on at once).",
      }),
      open: t.exposeBoolean('open', {
        description:
          'This caller is through the gate (a member of the company, or a visitor holding its pass as tour(access:) or the X-Roomwalk-Access header, that the agent has not taken back).',
      }),
    }),
  });

builder.objectField(TourRef, 'leadGate', (t) =>
  t.field({
    type: LeadGateRef,
    nullable: true,
    description: 'The lead gate (null: none).',
    resolve: (tour, _a, ctx) => leadGateForCaller(ctx.services, ctx.auth, tour),
  }),
);

export const LeadGateSettingsRef = builder
  .objectRef<{ mode: string; markerId: string | null; seconds: number | null; approval: boolean }>('LeadGateSettings')
  .implement({
    fields: (t) => ({
      mode: t.exposeString('mode', { description: 'OFF, ROOM or SECONDS.' }),
      markerId: t.id({ nullable: true, resolve: (s) => (s.markerId ? encodeId('Marker', s.markerId) : null) }),
      seconds: t.exposeInt('seconds', { nullable: true }),
      approval: t.exposeBoolean('approval'),
    }),
  });

builder.objectField(TourRef, 'leadGateSettings', (t) =>
  t.field({
    type: LeadGateSettingsRef,
    nullable: true,
    description: "The lead gate as its owner set it in Tour Info (members of the tour's company; null for others).",
    resolve: (tour, _a, ctx) => (ctx.auth?.companyId === tour.company_id ? leadGateSettings(tour) : null),
  }),
);

const TourLeadGateSetInput = builder.inputType('TourLeadGateSetInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    mode: t.string({
      required: true,
      description: 'OFF, ROOM (before the room of markerId) or SECONDS (after `seconds` of watching).',
    }),
    markerId: t.id({ description: 'The room (marker) the form comes before (ROOM).' }),
    seconds: t.int({ description: 'Seconds of watching, 5 to 3600 (SECONDS).' }),
    approval: t.boolean({ required: true, description: "The visitor waits for the agent's approval after the form." }),
  }),
});

builder.mutationFields((t) => ({
  tourLeadGateSet: t.field({
    type: TourRef,
    description:
      "Sets the tour's lead gate (its owner or a company admin). Visitors not through it get the clips up to the chosen room only.",
    args: { input: t.arg({ type: TourLeadGateSetInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      setLeadGate(ctx.services, requireAuth(ctx), {
        id: String(input.id),
        mode: input.mode,
        markerId: input.markerId == null ? null : String(input.markerId),
        seconds: input.seconds ?? null,
        approval: input.approval,
      }),
  }),
  tourLeadApprove: t.field({
    type: TourLeadRef,
    description:
      "Lets a visitor waiting at the lead gate go on (the tour's owner or a company admin): their page continues at once. The pass holds at the tour's access as it is now: a changed password or access, or the gate turned off, ends it.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const id = await approveLead(ctx.services, requireAuth(ctx), String(args.id));
      return (await leadById(ctx.services, id))!;
    },
  }),
  tourLeadRevokePass: t.field({
    type: TourLeadRef,
    description:
      "Takes a lead's pass through the lead gate back (the tour's owner or a company admin): the lead is REVOKED and its pass opens nothing from the next request on.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const id = await revokeLeadPass(ctx.services, requireAuth(ctx), String(args.id));
      return (await leadById(ctx.services, id))!;
    },
  }),
}));

builder.queryField('tourLeads', (t) =>
  t.field({
    type: [TourLeadRef],
    description:
      "The latest 100 leads the caller may see, newest first (a company admin: the company's; a member: those of the tours they own); `waiting`: only visitors waiting at a lead gate for approval.",
    args: { waiting: t.arg.boolean() },
    resolve: (_r, args, ctx) => companyLeads(ctx.services, requireAuth(ctx), args.waiting === true),
  }),
);

const gateRow = (ctx: Context, lead: TourLeadModel) =>
  loadBatched(ctx, 'lead gate rows', (ids) => leadGateRows(ctx.services, ctx.auth, ids), lead.id, undefined);

builder.objectFields(TourLeadRef, (t) => ({
  gate: t.string({
    nullable: true,
    description:
      "Where the lead stands at the tour's lead gate: WAITING (for the agent), APPROVED, OPEN (went on at once), REVOKED (the agent took the pass back); null without a gate or for anyone but who may see the tour's leads (its owner, a company admin).",
    resolve: async (lead, _a, ctx) => (await gateRow(ctx, lead))?.gate ?? null,
  }),
  stoppedAt: t.string({
    nullable: true,
    description: 'The room the visitor was in when the lead gate stopped them (members only).',
    resolve: async (lead, _a, ctx) => {
      const row = await gateRow(ctx, lead);
      return row ? stoppedRoom(ctx.services, row.tour_id, row.gate_frame) : null;
    },
  }),
  createdAt: t.field({
    type: 'DateTime',
    nullable: true,
    description: 'When the lead was left (members only).',
    resolve: async (lead, _a, ctx) => (await gateRow(ctx, lead))?.created_at ?? null,
  }),
  tourTitle: t.string({
    nullable: true,
    description: "The lead's tour's title (members only).",
    resolve: async (lead, _a, ctx) => (await gateRow(ctx, lead))?.title ?? null,
  }),
}));
