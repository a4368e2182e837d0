/** Accounts, companies, licences and teams. */
import { resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { PAGE_SIZES } from '../limits.js';
import type { CompanyRow, InviteRow, LicenseRow, UserRow } from '../../db/types.js';
import type { UserProfile } from '../../services/account-reads.js';
import { builder, type Context } from '../builder.js';
import { notFound } from '../errors.js';
import { requireAuth, requireSameCompany } from '../guards.js';
import { currentPeriodStart, getLicense, licenseCounts, uploadsSinceByUser } from '../../services/licenses.js';
import { TourRef } from './tour-refs.js';
import {
  companyById,
  companyMembers,
  ownersTopTours,
  ownersTourFigures,
  profilesOfUsers,
  teamInvitesPage,
  userById,
  usersByIds,
  type OwnerTourFigures,
} from '../../services/account-reads.js';
import { loadBatched } from '../loaders.js';
import { serverNow } from '../../core/clock.js';

const UserRoleEnum = builder.enumType('UserRole', { values: ['ADMIN', 'USER'] as const });

/** node(id) answers a user only to members of the same company. */
export const UserRef = builder.nodeRef<UserRow, string>('User', {
  id: { resolve: (u) => u.id },
  loadOne: async (id, ctx) => {
    if (!ctx.auth) return null;
    const row = await userById(ctx.services, id);
    return row && row.company_id === ctx.auth.companyId ? row : null;
  },
});
export const ProfileRef = builder.objectRef<UserProfile>('UserProfile');
export const CompanyRef = builder.objectRef<CompanyRow>('Company');
export const LicenseRef = builder.objectRef<LicenseRow>('License');
export const TeamInviteRef = builder.objectRef<InviteRow>('TeamInvite');

/** The company's current monthly period start, read once for all the members of a list. */
function periodStartFor(ctx: Context, companyId: string): Promise<Date> {
  const starts = async (ids: readonly string[]) => {
    const unique = [...new Set(ids)];
    const licenses = await Promise.all(unique.map((id) => getLicense(ctx.services.db, id)));
    return new Map(
      unique.map((id, i) => [id, licenses[i] ? currentPeriodStart(licenses[i], serverNow(ctx.services)) : new Date(0)]),
    );
  };
  return loadBatched(ctx, 'period starts', starts, companyId, new Date(0));
}

const NO_TOURS: OwnerTourFigures = { activeTours: 0, totalViews: 0, deletedTourViews: 0 };
/** A user's tour figures, read with those of the other users of the same list (the Team page's members). */
const tourFigures = (ctx: Context, userId: string) =>
  loadBatched(ctx, 'tour figures', (ids) => ownersTourFigures(ctx.services, ids), userId, NO_TOURS);

UserRef.implement({
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'username' in v && 'password_hash' in v,
  fields: (t) => ({
    username: t.exposeString('username'),
    role: t.field({ type: UserRoleEnum, resolve: (u) => u.role }),
    isAdmin: t.boolean({ resolve: (u) => u.role === 'ADMIN' }),
    isSuperAdmin: t.boolean({ resolve: (u) => u.is_superadmin }),
    activated: t.boolean({
      description: 'False until the activation link is followed (Not activated).',
      resolve: (u) => u.activated_at !== null,
    }),
    profile: t.field({
      type: ProfileRef,
      nullable: true,
      resolve: (u, _a, ctx) => loadBatched(ctx, 'profiles', (ids) => profilesOfUsers(ctx.services, ids), u.id, null),
    }),
    company: t.field({
      type: CompanyRef,
      nullable: true,
      resolve: (u, _a, ctx) => companyById(ctx.services, u.company_id),
    }),
    monthlyActiveTours: t.int({ resolve: async (u, _a, ctx) => (await tourFigures(ctx, u.id)).activeTours }),
    monthlyUploadedTours: t.int({
      resolve: async (u, _a, ctx) => {
        const since = await periodStartFor(ctx, u.company_id);
        return loadBatched(
          ctx,
          `uploads since ${since.toISOString()}`,
          (ids) => uploadsSinceByUser(ctx.services.db, since, ids),
          u.id,
          0,
        );
      },
    }),
    totalViews: t.int({
      description: "Views of all this user's tours that still exist.",
      resolve: async (u, _a, ctx) => (await tourFigures(ctx, u.id)).totalViews,
    }),
    deletedTourViews: t.int({
      description: "Views of this user's deleted and deactivated tours.",
      resolve: async (u, _a, ctx) => (await tourFigures(ctx, u.id)).deletedTourViews,
    }),
    topFiveTours: t.field({
      type: [TourRef],
      resolve: (u, _a, ctx) => loadBatched(ctx, 'top tours', (ids) => ownersTopTours(ctx.services, ids), u.id, []),
    }),
  }),
});

ProfileRef.implement({
  fields: (t) => ({
    id: t.globalID({ resolve: (p) => ({ type: 'UserProfile', id: p.id }) }),
    name: t.exposeString('name'),
    surname: t.exposeString('surname'),
    email: t.exposeString('email'),
    contactNumber: t.exposeString('contact_number', { nullable: true }),
    profileImageURL: t.string({
      nullable: true,
      resolve: (p, _a, ctx) => (p.profile_image_key ? ctx.services.storage.publicUrl(p.profile_image_key) : null),
    }),
    company: t.field({
      type: CompanyRef,
      nullable: true,
      resolve: (p, _a, ctx) => companyById(ctx.services, p.company_id),
    }),
  }),
});

CompanyRef.implement({
  fields: (t) => ({
    id: t.globalID({ resolve: (c) => ({ type: 'Company', id: c.id }) }),
    name: t.exposeString('name'),
    address: t.exposeString('address', { nullable: true }),
    vatno: t.exposeString('vat_no', { nullable: true }),
    countrycode: t.exposeString('country_code'),
    referredby: t.exposeString('referred_by', { nullable: true }),
    logoimageurl: t.string({
      nullable: true,
      resolve: (c, _a, ctx) => (c.logo_key ? ctx.services.storage.publicUrl(c.logo_key) : null),
    }),
    accentColor: t.exposeString('accent_color', {
      nullable: true,
      description: 'Custom Company Branding: the accent colour (#rrggbb) of the company tours.',
    }),
    license: t.field({
      type: LicenseRef,
      nullable: true,
      resolve: (c, _a, ctx) => getLicense(ctx.services.db, c.id).then((l) => l ?? null),
    }),
    members: t.field({
      type: [UserRef],
      resolve: (c, _a, ctx) => {
        requireSameCompany(ctx, c.id);
        return companyMembers(ctx.services, c.id);
      },
    }),
    invites: t.connection(
      {
        type: TeamInviteRef,
        args: {},
        // Accepted invites (the members) for everyone in the company; pending ones, with their addresses, for admins
        // only.
        resolve: (c, args, ctx) => {
          const auth = requireSameCompany(ctx, c.id);
          const admin = auth.isCompanyAdmin || auth.isSuperAdmin;
          // The cursor is the invite id (services/account-reads.ts reads its place back in SQL).
          return resolveCursorConnection(
            { args, ...PAGE_SIZES['Company.invites'], toCursor: (i: InviteRow) => i.id },
            (page: ResolveCursorConnectionArgs) => teamInvitesPage(ctx.services, c.id, admin, page),
          );
        },
      },
      { name: 'TeamInviteConnection' },
      { name: 'TeamInviteEdge' },
    ),
  }),
});

LicenseRef.implement({
  fields: (t) => ({
    planName: t.exposeString('plan_name'),
    subscriptionId: t.exposeString('subscription_id', {
      nullable: true,
      description: "The card provider's subscription id.",
    }),
    quantity: t.exposeInt('quantity', { description: 'The active-tour allowance.' }),
    uploadLimit: t.exposeInt('upload_limit'),
    monthlyActiveTours: t.int({
      resolve: async (l, _a, ctx) =>
        (await licenseCounts(ctx.services.db, l, serverNow(ctx.services))).monthlyActiveTours,
    }),
    monthlyUploadedTours: t.int({
      resolve: async (l, _a, ctx) =>
        (await licenseCounts(ctx.services.db, l, serverNow(ctx.services))).monthlyUploadedTours,
    }),
    startDate: t.field({ type: 'DateTime', resolve: (l) => l.start_date }),
    endDate: t.field({ type: 'DateTime', nullable: true, resolve: (l) => l.end_date }),
  }),
});

TeamInviteRef.implement({
  fields: (t) => ({
    id: t.globalID({ resolve: (i) => ({ type: 'TeamInvite', id: i.id }) }),
    email: t.exposeString('email'),
    accepted: t.exposeBoolean('accepted'),
    createdAt: t.field({ type: 'DateTime', resolve: (i) => i.created_at }),
    expiresAt: t.field({ type: 'DateTime', resolve: (i) => i.expires_at }),
    user: t.field({
      type: UserRef,
      nullable: true,
      resolve: (i, _a, ctx) =>
        i.accepted_user_id
          ? loadBatched(ctx, 'users', (ids) => usersByIds(ctx.services, ids), i.accepted_user_id, null)
          : null,
    }),
  }),
});

const MeRef = builder.objectRef<{ userId: string }>('Me').implement({
  fields: (t) => ({
    user: t.field({
      type: UserRef,
      resolve: async ({ userId }, _a, ctx) => {
        const u = await userById(ctx.services, userId);
        if (!u) throw notFound();
        return u;
      },
    }),
    deletionCancelledAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: "When signing in last cancelled this account's deletion; null when none was.",
      resolve: async ({ userId }, _a, ctx) => (await userById(ctx.services, userId))?.deletion_cancelled_at ?? null,
    }),
  }),
});

builder.queryField('me', (t) =>
  t.field({ type: MeRef, resolve: (_r, _a, ctx) => ({ userId: requireAuth(ctx).userId }) }),
);

// ---- Inputs -------------------------------------------------------------------------------

export const UserRegisterInput = builder.inputType('UserRegisterInput', {
  fields: (t) => ({
    username: t.string({ required: true }),
    password: t.string({ required: true }),
    inviteToken: t.string(),
    referredBy: t.string(),
    name: t.string({ required: true }),
    surname: t.string({ required: true }),
    contactNumber: t.string(),
    turnstileToken: t.string({ required: true }),
    acceptedTerms: t.boolean({ required: true }),
  }),
});
export const UserRequestPasswordResetInput = builder.inputType('UserRequestPasswordResetInput', {
  fields: (t) => ({ email: t.string({ required: true }) }),
});
export const UserPasswordResetInput = builder.inputType('UserPasswordResetInput', {
  fields: (t) => ({ token: t.string({ required: true }), newPassword: t.string({ required: true }) }),
});
export const UserSaveInput = builder.inputType('UserSaveInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    surname: t.string({ required: true }),
    contactNumber: t.string({ required: true }),
    profileImage: t.field({ type: 'Upload' }),
  }),
});
export const CompanySaveInput = builder.inputType('CompanySaveInput', {
  fields: (t) => ({
    countryCode: t.string(),
    name: t.string({ required: true }),
    address: t.string(),
    vatNo: t.string(),
    logoImage: t.field({ type: 'Upload' }),
    accentColor: t.string({
      description: "Custom Company Branding (Basic and higher): '#rrggbb' with white text at AA contrast; '' clears.",
    }),
  }),
});
export const InviteMemberInput = builder.inputType('InviteMemberInput', {
  fields: (t) => ({ email: t.string({ required: true }), companyId: t.id({ required: true }) }),
});
export const FeedbackInput = builder.inputType('FeedbackInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    email: t.string({ required: true }),
    comment: t.string({ required: true }),
  }),
});

// Account operations are implemented in ../../services/accounts.ts and wired in ./account-mutations.ts.
