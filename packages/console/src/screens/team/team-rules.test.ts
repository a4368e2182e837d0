import { describe, expect, it } from 'vitest';
import { describeRoleChange, displayName, memberLabel, type Invite } from './team-rules.js';

const invite = (over: Partial<Invite>): Invite =>
  ({
    id: 'i1',
    email: 'sam@example.com',
    accepted: true,
    createdAt: '2026-11-01T00:00:00Z',
    expiresAt: '2026-11-08T00:00:00Z',
    user: null,
    ...over,
  }) as Invite;

describe('team rules', () => {
  it('labels a member by invite state and role', () => {
    expect(memberLabel({ accepted: false })).toBe('Pending');
    expect(memberLabel({ accepted: true, user: { isAdmin: false } })).toBe('Standard User');
    expect(memberLabel({ accepted: true, user: { isAdmin: true } })).toBe('Admin User');
  });

  it('names a member by profile name, then username, then e-mail', () => {
    expect(
      displayName({ email: 'sam@example.com', user: { username: 'sam', profile: { name: 'Sam', surname: 'Nkosi' } } }),
    ).toBe('Sam Nkosi');
    expect(displayName({ email: 'sam@example.com', user: { username: 'sam', profile: null } })).toBe('sam');
    expect(displayName({ email: 'sam@example.com', user: null })).toBe('sam@example.com');
  });

  it('asks each role change in its own words, with a button that matches its weight', () => {
    const admin = invite({ user: { username: 'sam', profile: null, isAdmin: true } as Invite['user'] });
    expect(describeRoleChange({ kind: 'revoke', invite: invite({ accepted: false }) })).toMatchObject({
      title: 'Revoke Invite',
      variant: 'danger',
      question: expect.stringContaining('Revoke the invite to sam@example.com?'),
    });
    expect(describeRoleChange({ kind: 'promote', invite: admin })).toMatchObject({
      title: 'Promote to Admin',
      variant: 'primary',
      question: expect.stringContaining('Give sam the admin role?'),
    });
    expect(describeRoleChange({ kind: 'demote', invite: admin })).toMatchObject({
      title: 'Remove Admin Role',
      variant: 'warning',
      question: expect.stringContaining('Remove the admin role from sam?'),
    });
  });
});
