/** Leads and live viewing (tours §3, §7). Behaviour lands with the live viewing issue. */
import { builder } from '../builder.js';
import { notAvailableYet } from '../errors.js';
import { requireAuth } from '../guards.js';
import { topics } from '../../events/event-bus.js';
import { TourRef } from './tour-refs.js';

export interface ViewingSessionModel { rtcToken: string | null; signalingToken: string; appId: string | null; viewingSessionUserId: string; expireTime: Date | string }
export interface TourLeadModel { id: string; name: string; surname: string | null; email: string; contactNumber: string | null; leadType: string; tourId: string }

const ViewingSessionRef = builder.objectRef<ViewingSessionModel>('ViewingSessionRequest').implement({
  fields: (t) => ({
    rtcToken: t.exposeString('rtcToken', { nullable: true }),
    signalingToken: t.exposeString('signalingToken'),
    appId: t.exposeString('appId', { nullable: true }),
    viewingSessionUserId: t.exposeString('viewingSessionUserId'),
    expireTime: t.field({ type: 'DateTime', resolve: (v) => v.expireTime }),
  }),
});

export const LeadTypeEnum = builder.enumType('LeadType', { values: ['LIVE_VIEWING', 'CONTACT'] as const });

export const TourLeadRef = builder.objectRef<TourLeadModel>('TourLead').implement({
  fields: (t) => ({
    id: t.globalID({ resolve: (l) => ({ type: 'TourLead', id: l.id }) }),
    name: t.exposeString('name'),
    surname: t.exposeString('surname', { nullable: true }),
    email: t.exposeString('email'),
    contactNumber: t.exposeString('contactNumber', { nullable: true }),
    leadType: t.field({ type: LeadTypeEnum, resolve: (l) => l.leadType as 'LIVE_VIEWING' | 'CONTACT' }),
    tourId: t.globalID({ resolve: (l) => ({ type: 'Tour', id: l.tourId }) }),
  }),
});

builder.objectField(TourRef, 'viewingSessionRequest', (t) =>
  t.field({ type: ViewingSessionRef, nullable: true, description: 'A live viewing session for this visitor; null until live viewing is available.', resolve: () => null }),
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
  }),
});
const TourLeadPayloadRef = builder.objectRef<{ tourLead: TourLeadModel; viewingSessionRequest: ViewingSessionModel | null }>('TourLeadCreatePayload').implement({
  fields: (t) => ({
    tourLead: t.field({ type: TourLeadRef, resolve: (p) => p.tourLead }),
    viewingSessionRequest: t.field({ type: ViewingSessionRef, nullable: true, resolve: (p) => p.viewingSessionRequest }),
  }),
});

builder.mutationField('tourLeadCreate', (t) =>
  t.field({
    type: TourLeadPayloadRef,
    args: { input: t.arg({ type: TourLeadCreateInput, required: true }) },
    resolve: () => {
      throw notAvailableYet();
    },
  }),
);

builder.subscriptionField('tourLeadCreated', (t) =>
  t.field({
    type: TourLeadRef,
    description: 'Leads left on the signed-in agent\'s tours, as they arrive.',
    subscribe: (_r, _a, ctx) => ctx.services.events.subscribe<TourLeadModel>(topics.leadCreated(requireAuth(ctx).userId)),
    resolve: (l) => l,
  }),
);
