/** Leads and live viewing (docs/live-viewing.md). */
import { LEAD_TYPES } from '@roomwalk/shared';
import { builder } from '../builder.js';
import { badInput } from '../errors.js';
import { requireAuth } from '../guards.js';
import { topics } from '../../events/event-bus.js';
import { TourRef } from './tour-refs.js';
import { createLead, type TourLeadModel } from '../../services/live/leads.js';
import type { GateAnswer } from '../../services/lead-gate/approval.js';
import {
  hostSession,
  issueRequest,
  participantId,
  LIVE_ROLES,
  type ViewingSessionRequest,
} from '../../services/live/sessions.js';

export type { TourLeadModel };
type ViewingSessionModel = ViewingSessionRequest;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ViewingSessionRef = builder.objectRef<ViewingSessionModel>('ViewingSessionRequest').implement({
  fields: (t) => ({
    rtcToken: t.exposeString('rtcToken', { nullable: true }),
    signalingToken: t.exposeString('signalingToken'),
    appId: t.exposeString('appId', { nullable: true }),
    viewingSessionUserId: t.exposeString('viewingSessionUserId'),
    expireTime: t.field({ type: 'DateTime', resolve: (v) => v.expireTime }),
  }),
});

const LeadTypeEnum = builder.enumType('LeadType', { values: ['LIVE_VIEWING', 'CONTACT'] as const });

export const TourLeadRef = builder.objectRef<TourLeadModel>('TourLead').implement({
  fields: (t) => ({
    id: t.globalID({ resolve: (l) => ({ type: 'TourLead', id: l.id }) }),
    name: t.exposeString('name'),
    surname: t.exposeString('surname', { nullable: true }),
    email: t.exposeString('email'),
    contactNumber: t.exposeString('contactNumber', { nullable: true }),
    leadType: t.field({ type: LeadTypeEnum, resolve: (l) => l.leadType as 'LIVE_VIEWING' | 'CONTACT' }),
    tourId: t.globalID({ resolve: (l) => ({ type: 'Tour', id: l.tourId }) }),
    viewingSessionId: t.exposeID('viewingSessionId', {
      nullable: true,
      description:
        'The live viewing session this lead opened or joined: the agent joins it as host with `Tour.viewingSessionRequest(session:)` (the `session=` of the link in the lead mail). Null for a CONTACT lead.',
    }),
  }),
});

builder.objectField(TourRef, 'viewingSessionRequest', (t) =>
  t.field({
    type: ViewingSessionRef,
    nullable: true,
    description:
      "For a signed-in member of the tour's company: host tokens for a live viewing session of this tour (the one named by `session`, from the link in the lead mail; else the newest open one; else a new one the host waits in). Null for anyone else: visitors get theirs from tourLeadCreate.",
    args: {
      session: t.arg.id({
        required: false,
        description: "The viewing session id from the agent's link (`session=` in the address).",
      }),
    },
    resolve: async (tour, args, ctx) => {
      if (!ctx.auth || ctx.auth.companyId !== tour.company_id || tour.deleted_at) return null;
      const sessionId = args.session ?? null;
      if (sessionId !== null && !UUID.test(sessionId)) throw badInput('Not a valid viewing session.', 'session');
      const session = await hostSession(ctx.services, tour.id, ctx.auth.userId, sessionId?.toLowerCase() ?? null);
      if (!session) return null;
      return issueRequest(ctx.services, session, LIVE_ROLES.host, participantId.host(ctx.auth.userId));
    },
  }),
);

const TourLeadCreateInput = builder.inputType('TourLeadCreateInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    surname: t.string(),
    email: t.string({ required: true }),
    contactNumber: t.string(),
    turnstileToken: t.string({ required: true }),
    leadType: t.field({ type: LeadTypeEnum, required: true }),
    tourId: t.id({ required: true }),
    visitorId: t.string({
      description:
        "The player's anonymous visitor id of this visit, so the lead shows the rooms its visitor saw (TourLead.roomPath).",
    }),
    access: t.string({
      description:
        "The access grant tourUnlock answered (a password tour's leads need it, as tour(access:) does; a company-only tour's leads come from its members only).",
    }),
    gateFrame: t.int({
      description:
        "Set when the tour's lead gate asked for the form: the frame the visitor stopped at. The answer's `gate` says whether they go on at once or wait.",
    }),
    link: t.string({
      description:
        "The audience link's token the visitor watches through (tour(link:)): its own lead gate applies, and gateFrame is counted in the link's frames.",
    }),
  }),
});
const LeadGateAnswerRef = builder.objectRef<GateAnswer>('LeadGateAnswer').implement({
  fields: (t) => ({
    state: t.exposeString('state', {
      description:
        "OPEN: go on with `access`; WAITING: wait for the agent's approval on the live socket with `waitToken`.",
    }),
    access: t.exposeString('pass', {
      nullable: true,
      description:
        "The pass through the gate: send it with the tour's password grant, if any (tour(access:) or the X-Roomwalk-Access header, space-separated). It is no password grant.",
    }),
    waitToken: t.exposeString('waitToken', {
      nullable: true,
      description:
        'Opens /ws/tour-viewer-events?tourId=&lead=&token= to wait for the approval (roomwalk_gate_open carries the pass).',
    }),
  }),
});
const TourLeadPayloadRef = builder
  .objectRef<{ tourLead: TourLeadModel; viewingSessionRequest: ViewingSessionModel | null; gate: GateAnswer | null }>(
    'TourLeadCreatePayload',
  )
  .implement({
    fields: (t) => ({
      gate: t.field({
        type: LeadGateAnswerRef,
        nullable: true,
        description: "Set for a lead left at the tour's lead gate (gateFrame).",
        resolve: (p) => p.gate,
      }),
      tourLead: t.field({ type: TourLeadRef, resolve: (p) => p.tourLead }),
      viewingSessionRequest: t.field({
        type: ViewingSessionRef,
        nullable: true,
        resolve: (p) => p.viewingSessionRequest,
      }),
    }),
  });

builder.mutationField('tourLeadCreate', (t) =>
  t.field({
    type: TourLeadPayloadRef,
    description:
      "A visitor leaves details (human check, rate limited per IP). A LIVE_VIEWING lead also opens a viewing session: the answer carries the visitor's tokens, and the agent gets a mail and a tourLeadCreated event.",
    args: { input: t.arg({ type: TourLeadCreateInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      createLead(
        ctx.services,
        ctx.auth,
        {
          name: input.name,
          surname: input.surname ?? null,
          email: input.email,
          contactNumber: input.contactNumber ?? null,
          turnstileToken: input.turnstileToken,
          leadType: input.leadType === LEAD_TYPES.CONTACT ? 'CONTACT' : 'LIVE_VIEWING',
          tourId: input.tourId,
          visitorId: input.visitorId ?? null,
          access: input.access ?? null,
          gateFrame: input.gateFrame ?? null,
          link: input.link ?? null,
        },
        ctx.ip,
      ),
  }),
);

builder.subscriptionField('tourLeadCreated', (t) =>
  t.field({
    type: TourLeadRef,
    description: "Leads left on the signed-in agent's tours, as they arrive.",
    subscribe: (_r, _a, ctx) =>
      ctx.services.events.subscribe<TourLeadModel>(topics.leadCreated(requireAuth(ctx).userId)),
    resolve: (l) => l,
  }),
);
