/** Who sees a tour: the owner's access choice in Tour Info, and the password screen's unlock. */
import { builder } from '../builder.js';
import { requireAuth } from '../guards.js';
import { setTourAccess, unlockTour } from '../../services/tour-access/tour-access.js';
import { TourRef } from './tour-refs.js';

const TourAccessSetInput = builder.inputType('TourAccessSetInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    access: t.string({ required: true, description: 'PUBLIC, PASSWORD or COMPANY.' }),
    password: t.string({
      description:
        'A new password (PASSWORD). Empty or omitted keeps the one set before; one is required the first time.',
    }),
  }),
});

const TourUnlockRef = builder.objectRef<{ access: string; expiresAt: Date }>('TourUnlock').implement({
  fields: (t) => ({
    access: t.exposeString('access', {
      description: "The grant to pass as tour(access:) for this browser session; void once the tour's access changes.",
    }),
    expiresAt: t.field({ type: 'DateTime', resolve: (g) => g.expiresAt }),
  }),
});

builder.mutationFields((t) => ({
  tourAccessSet: t.field({
    type: TourRef,
    description:
      'Sets who sees the tour (its owner or a company admin). A change revokes every grant and signed media URL given before.',
    args: { input: t.arg({ type: TourAccessSetInput, required: true }) },
    resolve: (_r, { input }, ctx) => setTourAccess(ctx.services, requireAuth(ctx), input),
  }),
  tourUnlock: t.field({
    type: TourUnlockRef,
    description:
      'The password screen: a right password answers an access grant. Wrong guesses are limited per address and tour and per address (RATE_LIMITED); after many wrong guesses at the tour from anywhere every guess needs a human check (HUMAN_CHECK_FAILED with extensions.humanCheck until `turnstileToken` passes).',
    args: {
      tourID: t.arg.id({ required: true }),
      password: t.arg.string({ required: true }),
      turnstileToken: t.arg.string({
        description: 'The human check, needed once the tour has had many wrong guesses (HUMAN_CHECK_FAILED).',
      }),
    },
    resolve: (_r, args, ctx) =>
      unlockTour(ctx.services, ctx.ip, args.tourID, args.password, args.turnstileToken ?? null),
  }),
}));
