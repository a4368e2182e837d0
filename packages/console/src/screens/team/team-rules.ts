/**
 * The Team page's pure rules: how a member is labelled, named and dated, and what a confirmation says.
 */
import type { ResultOf } from '../../graphql/graphql.js';
import type { TeamQuery } from './team-operations.js';

export type Invite = NonNullable<
  ResultOf<typeof TeamQuery>['me']['user']['company']
>['invites']['edges'][number]['node'];
export type MemberLabel = 'Pending' | 'Standard User' | 'Admin User';
/** A role change or a revoked invite waiting for the admin's Confirm. */
export type RoleChange = { kind: 'promote' | 'demote' | 'revoke'; invite: Invite };

export const MEMBER_NOTE =
  'Only company admins can invite members, revoke invites and change roles. Ask an admin of your company.';

export function memberLabel(invite: Pick<Invite, 'accepted'> & { user?: { isAdmin: boolean } | null }): MemberLabel {
  if (!invite.accepted) return 'Pending';
  return invite.user?.isAdmin ? 'Admin User' : 'Standard User';
}

/** A member by name when the profile has one, else by username, else by email (the member cards). */
export function displayName(i: {
  email: string;
  user?: { username: string; profile?: { name: string; surname: string } | null } | null;
}): string {
  const full = `${i.user?.profile?.name ?? ''} ${i.user?.profile?.surname ?? ''}`.trim();
  return full || i.user?.username || i.email;
}

/** Dates as the rest of the console writes them: '23 Nov 2026'. */
export const inviteDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-ZA', { year: 'numeric', month: 'short', day: 'numeric' });

const CHANGE_TITLES = { promote: 'Promote to Admin', revoke: 'Revoke Invite', demote: 'Remove Admin Role' } as const;
const CHANGE_VARIANTS = { promote: 'primary', revoke: 'danger', demote: 'warning' } as const;

/** What the confirmation dialog of a role change shows: its title, its question and its Confirm button's variant. */
export function describeRoleChange(change: RoleChange) {
  const name = displayName(change.invite);
  const question = {
    revoke: `Revoke the invite to ${change.invite.email}? The links already mailed to that address stop working.`,
    promote: `Give ${name} the admin role? Admins manage the team, plan and reports.`,
    demote: `Remove the admin role from ${name}? They stay in the team as a Standard User.`,
  }[change.kind];
  return { title: CHANGE_TITLES[change.kind], question, variant: CHANGE_VARIANTS[change.kind] };
}
