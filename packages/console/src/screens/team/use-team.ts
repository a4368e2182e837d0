/** The Team page's data: the team query, who may manage it, and the role changes with their notices. */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { NOTICES, TEAM_INVITES_PAGE_SIZE, isAdmin } from '@roomwalk/shared';
import { describeFailure, isNotAvailableYet } from '../../graphql/errors.js';
import { useSession } from '../../session/session-context.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { basicOrHigher } from '../billing/plan-access.js';
import {
  MakeAdminMemberMutation,
  RevokeAdminMemberMutation,
  RevokeMemberInviteMutation,
  TeamQuery,
} from './team-operations.js';
import type { RoleChange } from './team-rules.js';

type Failure = Parameters<typeof isNotAvailableYet>[0];

export function useTeam() {
  const { roles } = useSession();
  const notify = useSnackbar();
  const [{ data, error }, refetch] = useQuery({
    query: TeamQuery,
    variables: { count: TEAM_INVITES_PAGE_SIZE },
    requestPolicy: 'cache-and-network',
  });
  const [, revokeInvite] = useMutation(RevokeMemberInviteMutation);
  const [, makeAdmin] = useMutation(MakeAdminMemberMutation);
  const [, revokeAdmin] = useMutation(RevokeAdminMemberMutation);
  const [busy, setBusy] = useState(false);
  const reload = () => refetch({ requestPolicy: 'network-only' });

  const company = data?.me.user.company ?? null;
  const invites = company?.invites.edges.map((e) => e.node) ?? [];

  const run = async (action: () => Promise<{ error?: Failure }>, ok: [string, string?], fail: string) => {
    setBusy(true);
    const r = await action();
    setBusy(false);
    if (r.error) notify('error', isNotAvailableYet(r.error) ? describeFailure(r.error) : fail);
    else notify('success', ok[0], ok[1]);
    reload();
    return !r.error;
  };

  /** Carries out a confirmed role change; resolves when the server has answered (and the notice is shown). */
  const apply = (change: RoleChange): Promise<boolean> => {
    if (change.kind === 'revoke') {
      const inviteId = change.invite.id;
      return run(
        () => revokeInvite({ inviteId }),
        [NOTICES.revokedInvite, NOTICES.successful],
        NOTICES.couldNotRevokeInvite,
      );
    }
    const userId = change.invite.user?.id;
    if (!userId) return Promise.resolve(false);
    if (change.kind === 'promote')
      return run(
        () => makeAdmin({ userId }),
        [NOTICES.promotedToAdmin, NOTICES.teamAdminAdded],
        NOTICES.couldNotPromote,
      );
    return run(
      () => revokeAdmin({ userId }),
      [NOTICES.revokedAdmin, NOTICES.teamAdminRemoved],
      NOTICES.couldNotRevokeAdmin,
    );
  };

  return {
    data,
    error,
    reload,
    company,
    /** Standard members see the team but are not offered what the server refuses them. */
    canManage: isAdmin(roles) || !!data?.me.user.isAdmin,
    allowed: basicOrHigher(roles, data?.me.user.company?.license?.planName),
    pending: invites.filter((i) => !i.accepted),
    members: invites.filter((i) => i.accepted),
    busy,
    apply,
  };
}
