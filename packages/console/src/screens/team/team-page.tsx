/** Team management (accounts §2): invite, pending invites, members, promote/demote with confirmation. */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from 'urql';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlBadge from '@shoelace-style/shoelace/dist/react/badge/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { ERROR_TEXTS, NOTICES, TEAM_INVITES_PAGE_SIZE, inviteSchema, isAdmin } from '@roomwalk/shared';
import { basicOrHigher } from '../billing/plan-access.js';
import type { z } from 'zod';
import { InviteMemberMutation, MakeAdminMemberMutation, RevokeAdminMemberMutation, RevokeMemberInviteMutation, TeamQuery } from './team-operations.js';
import { describeFailure, isNotAvailableYet } from '../../graphql/errors.js';
import type { ResultOf } from '../../graphql/graphql.js';
import { useSession } from '../../session/session-context.js';
import { DataLoadError } from '../../ui/data-load-error.js';
import { Dialog } from '../../ui/dialog.js';
import { FormField, shouldShow } from '../../ui/form-field.js';
import { Loading, Page } from '../../ui/page.js';
import { useSnackbar, type SnackbarVariant } from '../../ui/snackbar.js';

type Invite = NonNullable<ResultOf<typeof TeamQuery>['me']['user']['company']>['invites']['edges'][number]['node'];
export type MemberLabel = 'Pending' | 'Standard User' | 'Admin User';

export function memberLabel(invite: Pick<Invite, 'accepted'> & { user?: { isAdmin: boolean } | null }): MemberLabel {
  if (!invite.accepted) return 'Pending';
  return invite.user?.isAdmin ? 'Admin User' : 'Standard User';
}
/** A member by name when the profile has one, else by email (accounts §2 member cards). */
const displayName = (i: { email: string; user?: { username: string; profile?: { name: string; surname: string } | null } | null }) => {
  const full = `${i.user?.profile?.name ?? ''} ${i.user?.profile?.surname ?? ''}`.trim();
  return full || i.user?.username || i.email;
};
/** Dates as the rest of the console writes them: '23 Nov 2026'. */
const inviteDate = (iso: string) => new Date(iso).toLocaleDateString('en-ZA', { year: 'numeric', month: 'short', day: 'numeric' });
export const MEMBER_NOTE = 'Only company admins can invite members, revoke invites and change roles. Ask an admin of your company.';

function InviteDialog({ open, onClose, companyId, onInvited }: { open: boolean; onClose: () => void; companyId: string | null; onInvited: () => void }) {
  const [, invite] = useMutation(InviteMemberMutation);
  const notify = useSnackbar();
  type Values = z.input<typeof inviteSchema>;
  const { register, handleSubmit, formState, reset } = useForm<Values>({ resolver: zodResolver(inviteSchema), mode: 'onTouched', defaultValues: { email: '' } });
  const show = shouldShow('email', formState) ? formState.errors.email?.message : undefined;
  const close = () => {
    reset({ email: '' });
    onClose();
  };
  const onSubmit = handleSubmit(async (values) => {
    if (!companyId) return notify('error', NOTICES.unknownCompany);
    const r = await invite({ input: { email: values.email, companyId } });
    if (r.error) return notify('error', isNotAvailableYet(r.error) ? describeFailure(r.error) : NOTICES.inviteFailed);
    notify('success', NOTICES.invited);
    onInvited();
    close();
  });
  return (
    <Dialog
      open={open}
      label="Invite Member"
      onClose={close}
      persistent={formState.isSubmitting}
      footer={
        <>
          <SlButton onClick={close}>Cancel</SlButton>
          <SlButton variant="primary" loading={formState.isSubmitting} onClick={() => void onSubmit()}>
            Invite
          </SlButton>
        </>
      }
    >
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Invite Member">
        <FormField label="Invitee Email" type="email" autoComplete="off" error={show} {...register('email')} />
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}

type Confirm = { kind: 'promote' | 'demote' | 'revoke'; invite: Invite } | null;

function MemberCard({ invite, onOpen }: { invite: Invite; onOpen: () => void }) {
  const label = memberLabel(invite);
  return (
    <li>
      <button type="button" className="card member-card" onClick={onOpen} data-testid="member-card">
        <span className="member-card-name">
          <strong>{displayName(invite)}</strong>
          {invite.accepted && displayName(invite) !== (invite.user?.username || invite.email) ? <span className="field-hint">{invite.user?.username || invite.email}</span> : null}
        </span>
        <SlBadge variant={label === 'Admin User' ? 'primary' : label === 'Pending' ? 'warning' : 'neutral'} pill>
          {label}
        </SlBadge>
      </button>
    </li>
  );
}

export default function TeamPage() {
  const { roles } = useSession();
  const navigate = useNavigate();
  const notify = useSnackbar();
  const [{ data, error }, refetch] = useQuery({ query: TeamQuery, variables: { count: TEAM_INVITES_PAGE_SIZE }, requestPolicy: 'cache-and-network' });
  // Standard members see the team but are not offered what the server refuses them (issue 16 item 7).
  const canManage = isAdmin(roles) || !!data?.me.user.isAdmin;
  const allowed = basicOrHigher(roles, data?.me.user.company?.license?.planName);
  const [, revokeInvite] = useMutation(RevokeMemberInviteMutation);
  const [, makeAdmin] = useMutation(MakeAdminMemberMutation);
  const [, revokeAdmin] = useMutation(RevokeAdminMemberMutation);
  const [inviteOpen, setInviteOpen] = useState(false);
  const [selected, setSelected] = useState<Invite | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [busy, setBusy] = useState(false);
  const reload = () => refetch({ requestPolicy: 'network-only' });

  if (!data && !error)
    return (
      <Page title="My Team" back="/account">
        <Loading />
      </Page>
    );
  if (data && !allowed) {
    return (
      <Page title="My Team" back="/account">
        <Dialog
          open
          label="Not Available"
          onClose={() => navigate('/account')}
          footer={
            <>
              <SlButton onClick={() => navigate('/account')}>Close</SlButton>
              <SlButton variant="primary" onClick={() => navigate('/account/subscriptions')}>
                Upgrade
              </SlButton>
            </>
          }
        >
          <p>{ERROR_TEXTS.teamsNotAvailable}</p>
        </Dialog>
      </Page>
    );
  }
  if (error && !data)
    return (
      <Page title="My Team" back="/account">
        <DataLoadError error={error} onRetry={reload} />
      </Page>
    );
  if (!data)
    return (
      <Page title="My Team" back="/account">
        <Loading />
      </Page>
    );

  const company = data.me.user.company;
  const invites = company?.invites.edges.map((e) => e.node) ?? [];
  const pending = invites.filter((i) => !i.accepted);
  const members = invites.filter((i) => i.accepted);

  const run = async (action: () => Promise<{ error?: unknown }>, ok: [string, string?], fail: string) => {
    setBusy(true);
    const r = (await action()) as { error?: Parameters<typeof isNotAvailableYet>[0] };
    setBusy(false);
    const variant: SnackbarVariant = r.error ? 'error' : 'success';
    if (r.error) notify(variant, isNotAvailableYet(r.error) ? describeFailure(r.error) : fail);
    else notify(variant, ok[0], ok[1]);
    setConfirm(null);
    setSelected(null);
    reload();
  };

  const sel = selected;
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
      {invites.length === 0 ? (
        <section className="section" aria-labelledby="no-members">
          <h2 id="no-members">No Members Invited</h2>
          <p>Invite your colleagues by email; they join your company when they sign up through the link.</p>
        </section>
      ) : null}
      {pending.length > 0 ? (
        <section className="section" aria-labelledby="pending-invites">
          <h2 id="pending-invites">Pending Invites</h2>
          <ul className="members">
            {pending.map((i) => (
              <MemberCard key={i.id} invite={i} onOpen={() => setSelected(i)} />
            ))}
          </ul>
        </section>
      ) : null}
      {members.length > 0 ? (
        <section className="section" aria-labelledby="my-team">
          <h2 id="my-team">My Team</h2>
          <ul className="members">
            {members.map((i) => (
              <MemberCard key={i.id} invite={i} onOpen={() => setSelected(i)} />
            ))}
          </ul>
        </section>
      ) : null}

      <InviteDialog open={inviteOpen} onClose={() => setInviteOpen(false)} companyId={company?.id ?? null} onInvited={reload} />

      <Dialog
        open={!!sel && !sel.accepted && !confirm}
        label="Pending Invite"
        onClose={() => setSelected(null)}
        footer={
          <>
            <SlButton onClick={() => setSelected(null)}>Close</SlButton>
            {canManage ? (
              <SlButton variant="danger" onClick={() => sel && setConfirm({ kind: 'revoke', invite: sel })}>
                Revoke Invite
              </SlButton>
            ) : null}
          </>
        }
      >
        {sel ? (
          <dl className="details">
            <dt>Email</dt>
            <dd>{sel.email}</dd>
            <dt>Invited</dt>
            <dd>{inviteDate(sel.createdAt)}</dd>
            <dt>Expires</dt>
            <dd>{inviteDate(sel.expiresAt)}</dd>
          </dl>
        ) : null}
      </Dialog>

      <Dialog
        open={!!sel && sel.accepted && !confirm}
        label={sel ? displayName(sel) : 'Member'}
        onClose={() => setSelected(null)}
        footer={
          sel?.user && canManage ? (
            <>
              <SlButton onClick={() => setSelected(null)}>Close</SlButton>
              {sel.user.isAdmin ? (
                <SlButton variant="warning" onClick={() => setConfirm({ kind: 'demote', invite: sel })}>
                  Remove Admin Role
                </SlButton>
              ) : (
                <SlButton variant="primary" onClick={() => setConfirm({ kind: 'promote', invite: sel })}>
                  Promote to Admin
                </SlButton>
              )}
            </>
          ) : (
            <SlButton onClick={() => setSelected(null)}>Close</SlButton>
          )
        }
      >
        {sel?.user ? (
          <>
            <p>
              <SlBadge pill variant={sel.user.isAdmin ? 'primary' : 'neutral'}>
                {memberLabel(sel)}
              </SlBadge>
            </p>
            <dl className="details">
              <dt>Monthly Active Tours</dt>
              <dd>{sel.user.monthlyActiveTours}</dd>
              <dt>Monthly Uploaded Tours</dt>
              <dd>{sel.user.monthlyUploadedTours}</dd>
              <dt>Total view</dt>
              <dd>{sel.user.totalViews}</dd>
              <dt>Deleted tour views</dt>
              <dd>{sel.user.deletedTourViews}</dd>
            </dl>
            <h3>Top Performing Tours</h3>
            {sel.user.topFiveTours.length ? (
              <ol>
                {sel.user.topFiveTours.map((t) => (
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

      <Dialog
        open={!!confirm}
        label={confirm?.kind === 'promote' ? 'Promote to Admin' : confirm?.kind === 'revoke' ? 'Revoke Invite' : 'Remove Admin Role'}
        onClose={() => setConfirm(null)}
        persistent={busy}
        footer={
          <>
            <SlButton onClick={() => setConfirm(null)}>Cancel</SlButton>
            <SlButton
              variant={confirm?.kind === 'promote' ? 'primary' : confirm?.kind === 'revoke' ? 'danger' : 'warning'}
              loading={busy}
              onClick={() => {
                if (confirm?.kind === 'revoke') {
                  const inviteId = confirm.invite.id;
                  void run(() => revokeInvite({ inviteId }), [NOTICES.revokedInvite, NOTICES.successful], NOTICES.couldNotRevokeInvite);
                  return;
                }
                const userId = confirm?.invite.user?.id;
                if (!userId || !confirm) return;
                if (confirm.kind === 'promote') void run(() => makeAdmin({ userId }), [NOTICES.promotedToAdmin, NOTICES.teamAdminAdded], NOTICES.couldNotPromote);
                else void run(() => revokeAdmin({ userId }), [NOTICES.revokedAdmin, NOTICES.teamAdminRemoved], NOTICES.couldNotRevokeAdmin);
              }}
            >
              Confirm
            </SlButton>
          </>
        }
      >
        <p>
          {confirm?.kind === 'revoke'
            ? `Revoke the invite to ${confirm.invite.email}? The links already mailed to that address stop working.`
            : confirm?.kind === 'promote'
              ? `Give ${confirm ? displayName(confirm.invite) : ''} the admin role? Admins manage the team, plan and reports.`
              : `Remove the admin role from ${confirm ? displayName(confirm.invite) : ''}? They stay in the team as a Standard User.`}
        </p>
      </Dialog>
    </Page>
  );
}
