/** Listed or unlisted: Tour Info's "Search engines may show this tour" (services/share-preview/listing.ts). */
import { builder } from '../builder.js';
import { requireAuth } from '../guards.js';
import { setTourListed } from '../../services/share-preview/listing.js';
import { TourRef } from './tour-refs.js';

builder.objectField(TourRef, 'listed', (t) =>
  t.exposeBoolean('listed', {
    description:
      'Search engines may show the tour (its share page is indexable and in /sitemap.xml) while it is public. False by default: unlisted.',
  }),
);

const TourListedSetInput = builder.inputType('TourListedSetInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    listed: t.boolean({ required: true }),
  }),
});

builder.mutationField('tourListedSet', (t) =>
  t.field({
    type: TourRef,
    description:
      'Lists or unlists a tour (its owner or a company admin). Only a public tour may be listed (BAD_USER_INPUT otherwise).',
    args: { input: t.arg({ type: TourListedSetInput, required: true }) },
    resolve: (_r, { input }, ctx) => setTourListed(ctx.services, requireAuth(ctx), input),
  }),
);
