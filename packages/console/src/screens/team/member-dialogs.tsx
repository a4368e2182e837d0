/** The Team page's parts: a member's card, the pending invite and member dialogs, and the role change confirmation. */
import SlBadge from '@shoelace-style/shoelace/dist/react/badge/index.js';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { Dialog } from '../../ui/dialog.js';
import {
  describeRoleChange,
  displayName,
  inviteDate,
  memberLabel,
  type Invite,
  type RoleChange,
} from './team-rules.js';

export function MemberCard({ invite, onOpen }: { invite: Invite; onOpen: () => void }) {
  const label = memberLabel(invite);
  const name = displayName(invite);
  const account = invite.user?.username || invite.email;
  return (
    <li>
      <button type="button" className="card member-card" onClick={onOpen} data-testid="member-card">
        <span className="member-card-name">
          <strong>{name}</strong>
          {invite.accepted && name !== account ? <span className="field-hint">{account}</span> : null}
        </span>
        <SlBadge variant={label === 'Admin User' ? 'primary' : label === 'Pending' ? 'warning' : 'neutral'} pill>
          {label}
        </SlBadge>
      </button>
    </li>
  );
}

interface SelectedProps {
  invite: Invite | null;
  canManage: boolean;
  onClose: () => void;
  onChange: (change: RoleChange) => void;
}

export function PendingInviteDialog({ invite, canManage, onClose, onChange }: SelectedProps) {
  return (
    <Dialog
      open={!!invite}
      label="Pending Invite"
      onClose={onClose}
      footer={
        <>
          <SlButton onClick={onClose}>Close</SlButton>
          {canManage ? (
            <SlButton variant="danger" onClick={() => invite && onChange({ kind: 'revoke', invite })}>
              Revoke Invite
            </SlButton>
          ) : null}
        </>
      }
    >
      {invite ? (
        <dl className="details">
          <dt>Email</dt>
          <dd>{invite.email}</dd>
          <dt>Invited</dt>
          <dd>{inviteDate(invite.createdAt)}</dd>
          <dt>Expires</dt>
          <dd>{inviteDate(invite.expiresAt)}</dd>
        </dl>
      ) : null}
    </Dialog>
  );
}

export function MemberDialog({ invite, canManage, onClose, onChange }: SelectedProps) {
  const user = invite?.user;
  return (
    <Dialog
      open={!!invite}
      label={invite ? displayName(invite) : 'Member'}
      onClose={onClose}
      footer={
        invite && user && canManage ? (
          <>
            <SlButton onClick={onClose}>Close</SlButton>
            {user.isAdmin ? (
              <SlButton variant="warning" onClick={() => onChange({ kind: 'demote', invite })}>
                Remove Admin Role
              </SlButton>
            ) : (
              <SlButton variant="primary" onClick={() => onChange({ kind: 'promote', invite })}>
                Promote to Admin
              </SlButton>
            )}
          </>
        ) : (
          <SlButton onClick={onClose}>Close</SlButton>
        )
      }
    >
      {invite && user ? (
        <>
          <p>
            <SlBadge pill variant={user.isAdmin ? 'primary' : 'neutral'}>
              {memberLabel(invite)}
            </SlBadge>
          </p>
          <dl className="details">
            <dt>Monthly Active Tours</dt>
            <dd>{user.monthlyActiveTours}</dd>
            <dt>Monthly Uploaded Tours</dt>
            <dd>{user.monthlyUploadedTours}</dd>
            <dt>Total view</dt>
            <dd>{user.totalViews}</dd>
            <dt>Deleted tour views</dt>
            <dd>{user.deletedTourViews}</dd>
          </dl>
          <h3>Top Performing Tours</h3>
          {user.topFiveTours.length ? (
            <ol>
              {user.topFiveTours.map((t) => (
                <li key={t.id}>
                  {t.title || 'Untitled tour'} — {t.views} views
                </li>
              ))}
            </ol>
          ) : (
            <p>No tours yet.</p>
          )}
        </>
      ) : null}
    </Dialog>
  );
}

export function RoleChangeDialog({
  change,
  busy,
  onCancel,
  onConfirm,
}: {
  change: RoleChange | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: (change: RoleChange) => void;
}) {
  const text = change ? describeRoleChange(change) : null;
  return (
    <Dialog
      open={!!change}
      label={text?.title ?? 'Confirm'}
      onClose={onCancel}
      persistent={busy}
      footer={
        <>
          <SlButton onClick={onCancel}>Cancel</SlButton>
          <SlButton variant={text?.variant ?? 'primary'} loading={busy} onClick={() => change && onConfirm(change)}>
            Confirm
          </SlButton>
        </>
      }
    >
      <p>{text?.question}</p>
    </Dialog>
  );
}
