/** Account and team mutations of accounts §7, plus feedback. */
import { builder, SuccessRef } from '../builder.js';
import { notAvailableYet } from '../errors.js';
import {
  CompanyRef, CompanySaveInput, FeedbackInput, InviteMemberInput, ProfileRef, TeamInviteRef, UserPasswordResetInput,
  UserRef, UserRegisterInput, UserRequestPasswordResetInput, UserSaveInput,
} from './accounts.js';

builder.mutationFields((t) => ({
  userRegister: t.field({ type: UserRef, args: { input: t.arg({ type: UserRegisterInput, required: true }) }, resolve: () => { throw notAvailableYet(); } }),
  userActivation: t.field({ type: UserRef, args: { token: t.arg.string({ required: true }) }, resolve: () => { throw notAvailableYet(); } }),
  userActivationEmailResend: t.field({ type: SuccessRef, args: { email: t.arg.string({ required: true }) }, resolve: () => { throw notAvailableYet(); } }),
  userRequestPasswordReset: t.field({ type: SuccessRef, args: { input: t.arg({ type: UserRequestPasswordResetInput, required: true }) }, resolve: () => { throw notAvailableYet(); } }),
  userPasswordReset: t.field({ type: UserRef, args: { input: t.arg({ type: UserPasswordResetInput, required: true }) }, resolve: () => { throw notAvailableYet(); } }),
  userSave: t.field({ type: ProfileRef, args: { input: t.arg({ type: UserSaveInput, required: true }) }, resolve: () => { throw notAvailableYet(); } }),
  companySave: t.field({ type: CompanyRef, args: { input: t.arg({ type: CompanySaveInput, required: true }) }, resolve: () => { throw notAvailableYet(); } }),
  inviteMember: t.field({ type: TeamInviteRef, args: { input: t.arg({ type: InviteMemberInput, required: true }) }, resolve: () => { throw notAvailableYet(); } }),
  revokeMemberInvite: t.field({ type: SuccessRef, args: { inviteId: t.arg.id({ required: true }) }, resolve: () => { throw notAvailableYet(); } }),
  makeAdminMember: t.field({ type: SuccessRef, args: { userId: t.arg.id({ required: true }) }, resolve: () => { throw notAvailableYet(); } }),
  revokeAdminMember: t.field({ type: SuccessRef, args: { userId: t.arg.id({ required: true }) }, resolve: () => { throw notAvailableYet(); } }),
  feedbackSubmit: t.field({ type: SuccessRef, args: { input: t.arg({ type: FeedbackInput, required: true }) }, resolve: () => { throw notAvailableYet(); } }),
}));
