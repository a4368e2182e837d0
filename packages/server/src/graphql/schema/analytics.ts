/** Room-level tour analytics and a lead's room path; the rules are in services/reports/room-analytics.ts. */
import { builder } from '../builder.js';
import { requireAuth } from '../guards.js';
import { TourLeadRef } from './live.js';
import { tourAnalyticsFor, type TourRoomAnalytics } from '../../services/reports/room-analytics.js';
import { leadRoomPath } from '../../services/live/lead-room-path.js';

const RoomTimeRef = builder
  .objectRef<{ name: string; seconds: number; visits: number }>('TourAnalyticsRoom')
  .implement({
    description:
      'A room (the marker region from one marker to the next; "Entrance" before the first marker) over the period.',
    fields: (t) => ({
      name: t.exposeString('name'),
      seconds: t.exposeInt('seconds', {
        description: 'Seconds spent in the room, summed over the visits (average per visit: seconds / visits).',
      }),
      visits: t.exposeInt('visits', { description: 'Visits that entered the room.' }),
    }),
  });

const NamedCountRef = builder.objectRef<{ name: string; visits: number }>('TourAnalyticsCount').implement({
  description: 'Visits per room (exits: the room a visit ended in) or per device class (phone, tablet, desktop).',
  fields: (t) => ({ name: t.exposeString('name'), visits: t.exposeInt('visits') }),
});

const DailyRef = builder
  .objectRef<{ date: string; visits: number; uniqueVisitors: number }>('TourAnalyticsDay')
  .implement({
    fields: (t) => ({
      date: t.exposeString('date', { description: 'The UTC day, YYYY-MM-DD.' }),
      visits: t.exposeInt('visits'),
      uniqueVisitors: t.exposeInt('uniqueVisitors', { description: 'Distinct visitors of the day.' }),
    }),
  });

const TourRoomAnalyticsRef = builder.objectRef<TourRoomAnalytics>('TourRoomAnalytics').implement({
  description: 'A tour over whole UTC days: visits, rooms, exits, visits per day, devices (plans with Tour Analytics).',
  fields: (t) => ({
    from: t.exposeString('from', { description: 'First day of the period (YYYY-MM-DD, UTC).' }),
    to: t.exposeString('to', { description: 'Last day of the period (YYYY-MM-DD, UTC).' }),
    visits: t.exposeInt('visits', { description: 'Visits (one per visitor per 30 minutes: the view count).' }),
    uniqueVisitors: t.exposeInt('uniqueVisitors', {
      description: 'Distinct visitor ids (a visitor who declined cookies counts once per visit).',
    }),
    averageSeconds: t.exposeFloat('averageSeconds', { description: 'Average seconds per visit.' }),
    completionRate: t.exposeFloat('completionRate', {
      description: "Share of visits that reached the tour's end, 0 to 1.",
    }),
    fastTravels: t.exposeInt('fastTravels', { description: 'Fast travels (marker jumps) over all visits.' }),
    rooms: t.field({ type: [RoomTimeRef], description: 'Time per room, most time first.', resolve: (a) => a.rooms }),
    exits: t.field({ type: [NamedCountRef], description: 'Where visits ended, most first.', resolve: (a) => a.exits }),
    daily: t.field({
      type: [DailyRef],
      description: 'Visits and unique visitors per day, every day of the period.',
      resolve: (a) => a.daily,
    }),
    devices: t.field({
      type: [NamedCountRef],
      description: 'Visits per device class: phone, tablet, desktop.',
      resolve: (a) => a.devices,
    }),
  }),
});

builder.queryField('tourAnalytics', (t) =>
  t.field({
    type: TourRoomAnalyticsRef,
    description:
      "A tour's visits and rooms over whole UTC days from `from` to `to` (default: the 30 days to today; at most a year). The tour's owner or a company admin; PLAN_REQUIRED without Tour Analytics (Basic, Pro, Offline License).",
    args: {
      tourId: t.arg.id({ required: true }),
      from: t.arg({ type: 'DateTime' }),
      to: t.arg({ type: 'DateTime' }),
      audienceLinkId: t.arg.id({ description: 'Only the visits made through this audience link of the tour.' }),
    },
    resolve: (_r, args, ctx) =>
      tourAnalyticsFor(ctx.services, requireAuth(ctx), {
        tourId: String(args.tourId),
        from: args.from ?? null,
        to: args.to ?? null,
        audienceLinkId: args.audienceLinkId ? String(args.audienceLinkId) : null,
      }),
  }),
);

const RoomPathRef = builder.objectRef<{ name: string; seconds: number }>('TourLeadRoom').implement({
  fields: (t) => ({ name: t.exposeString('name'), seconds: t.exposeInt('seconds') }),
});

builder.objectField(TourLeadRef, 'roomPath', (t) =>
  t.field({
    type: [RoomPathRef],
    nullable: true,
    description:
      "The rooms the lead's visitor saw before leaving their details, in order, with seconds in each. Null for anyone but members of the tour's company.",
    resolve: (lead, _a, ctx) => leadRoomPath(ctx.services, ctx.auth ?? null, lead.id),
  }),
);
