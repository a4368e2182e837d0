/**
 * Account and team mutations, plus feedback. The work is in services/accounts.ts, team.ts, feedback.ts.
 */
import { builder, SuccessRef } from '../builder.js';
import { requireAuth } from '../guards.js';
import {
  CompanyRef,
  CompanySaveInput,
  FeedbackInput,
  InviteMemberInput,
  ProfileRef,
  TeamInviteRef,
  UserPasswordResetInput,
  UserRef,
  UserRegisterInput,
  UserRequestPasswordResetInput,
  UserSaveInput,
} from './accounts.js';
import {
  activateUser,
  registerUser,
  requestPasswordReset,
  resendActivation,
  resetPassword,
} from '../../services/accounts.js';
import { saveCompany, saveProfile } from '../../services/profile.js';
import { inviteMember, revokeInvite, setMemberAdmin } from '../../services/team.js';
import { submitFeedback } from '../../services/feedback.js';

const ok = { success: true } as const;

builder.mutationFields((t) => ({
  userRegister: t.field({
    type: UserRef,
    args: { input: t.arg({ type: UserRegisterInput, required: true }) },
    resolve: (_r, { input }, ctx) => registerUser(ctx.services, input, ctx.ip),
  }),
  userActivation: t.field({
    type: UserRef,
    args: { token: t.arg.string({ required: true }) },
    resolve: (_r, { token }, ctx) => activateUser(ctx.services, token),
  }),
  userActivationEmailResend: t.field({
    type: SuccessRef,
    args: { email: t.arg.string({ required: true }) },
    resolve: async (_r, { email }, ctx) => {
      await resendActivation(ctx.services, email, ctx.ip);
      return ok;
    },
  }),
  userRequestPasswordReset: t.field({
    type: SuccessRef,
    args: { input: t.arg({ type: UserRequestPasswordResetInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      await requestPasswordReset(ctx.services, input, ctx.ip);
      return ok;
    },
  }),
  userPasswordReset: t.field({
    type: UserRef,
    args: { input: t.arg({ type: UserPasswordResetInput, required: true }) },
    resolve: (_r, { input }, ctx) => resetPassword(ctx.services, input),
  }),
  userSave: t.field({
    type: ProfileRef,
    args: { input: t.arg({ type: UserSaveInput, required: true }) },
    resolve: (_r, { input }, ctx) => saveProfile(ctx.services, requireAuth(ctx), input),
  }),
  companySave: t.field({
    type: CompanyRef,
    args: { input: t.arg({ type: CompanySaveInput, required: true }) },
    resolve: (_r, { input }, ctx) => saveCompany(ctx.services, requireAuth(ctx), input),
  }),
  inviteMember: t.field({
    type: TeamInviteRef,
    args: { input: t.arg({ type: InviteMemberInput, required: true }) },
    resolve: (_r, { input }, ctx) => inviteMember(ctx.services, requireAuth(ctx), input),
  }),
  revokeMemberInvite: t.field({
    type: SuccessRef,
    args: { inviteId: t.arg.id({ required: true }) },
    resolve: async (_r, { inviteId }, ctx) => {
      await revokeInvite(ctx.services, requireAuth(ctx), inviteId);
      return ok;
    },
  }),
  makeAdminMember: t.field({
    type: SuccessRef,
    args: { userId: t.arg.id({ required: true }) },
    resolve: async (_r, { userId }, ctx) => {
      await setMemberAdmin(ctx.services, requireAuth(ctx), userId, true);
      return ok;
    },
  }),
  revokeAdminMember: t.field({
    type: SuccessRef,
    args: { userId: t.arg.id({ required: true }) },
    resolve: async (_r, { userId }, ctx) => {
      await setMemberAdmin(ctx.services, requireAuth(ctx), userId, false);
      return ok;
    },
  }),
  feedbackSubmit: t.field({
    type: SuccessRef,
    args: { input: t.arg({ type: FeedbackInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      await submitFeedback(ctx.services, input, { userId: ctx.auth?.userId ?? null, ip: ctx.ip });
      return ok;
    },
  }),
}));
