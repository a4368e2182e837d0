/** Team management: invite, pending invites, members, promote/demote with confirmation. */
import { useState } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { ERROR_TEXTS } from '@roomwalk/shared';
import { DataLoadError } from '../../ui/data-load-error.js';
import { Loading, Page } from '../../ui/page.js';
import { PlanGate } from '../../ui/plan-gate.js';
import { InviteDialog } from './invite-dialog.js';
import { MemberCard, MemberDialog, PendingInviteDialog, RoleChangeDialog } from './member-dialogs.js';
import { MEMBER_NOTE, type Invite, type RoleChange } from './team-rules.js';
import { useTeam } from './use-team.js';

function MemberList({
  id,
  title,
  invites,
  onOpen,
}: {
  id: string;
  title: string;
  invites: Invite[];
  onOpen: (i: Invite) => void;
}) {
  if (invites.length === 0) return null;
  return (
    <section className="section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul className="members">
        {invites.map((i) => (
          <MemberCard key={i.id} invite={i} onOpen={() => onOpen(i)} />
        ))}
      </ul>
    </section>
  );
}

export default function TeamPage() {
  const team = useTeam();
  const [inviteOpen, setInviteOpen] = useState(false);
  const [selected, setSelected] = useState<Invite | null>(null);
  const [change, setChange] = useState<RoleChange | null>(null);

  if (team.data && !team.allowed)
    return <PlanGate title="My Team" back="/account" text={ERROR_TEXTS.teamsNotAvailable} />;
  if (!team.data)
    return (
      <Page title="My Team" back="/account">
        {team.error ? <DataLoadError error={team.error} onRetry={team.reload} /> : <Loading />}
      </Page>
    );

  const { company, canManage, pending, members } = team;
  const confirm = async (c: RoleChange) => {
    await team.apply(c);
    setChange(null);
    setSelected(null);
  };
  return (
    <Page
      title={company?.name || 'My Team'}
      back="/account"
      actions={
        canManage ? (
          <SlButton variant="primary" onClick={() => setInviteOpen(true)}>
            <SlIcon slot="prefix" name="plus-lg" />
            Invite Member
          </SlButton>
        ) : null
      }
    >
      {canManage ? null : (
        <p className="page-note" data-testid="member-note">
          <SlIcon name="info-circle" aria-hidden="true" /> {MEMBER_NOTE}
        </p>
      )}
      {pending.length + members.length === 0 ? (
        <section className="section" aria-labelledby="no-members">
          <h2 id="no-members">No Members Invited</h2>
          <p>Invite your colleagues by email; they join your company when they sign up through the link.</p>
        </section>
      ) : null}
      <MemberList id="pending-invites" title="Pending Invites" invites={pending} onOpen={setSelected} />
      <MemberList id="my-team" title="My Team" invites={members} onOpen={setSelected} />

      <InviteDialog
        open={inviteOpen}
        onClose={() => setInviteOpen(false)}
        companyId={company?.id ?? null}
        onInvited={team.reload}
      />
      <PendingInviteDialog
        invite={selected && !selected.accepted && !change ? selected : null}
        canManage={canManage}
        onClose={() => setSelected(null)}
        onChange={setChange}
      />
      <MemberDialog
        invite={selected?.accepted && !change ? selected : null}
        canManage={canManage}
        onClose={() => setSelected(null)}
        onChange={setChange}
      />
      <RoleChangeDialog
        change={change}
        busy={team.busy}
        onCancel={() => setChange(null)}
        onConfirm={(c) => void confirm(c)}
      />
    </Page>
  );
}
