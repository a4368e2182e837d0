/**
 * Teams: invites and the admin role. The server lets company admins (ADMIN role, or a super admin in
 * their own company) manage the team on every plan; see docs/decisions.md, Accounts, for why.
 */
import { sql } from 'kysely';
import { ERROR_CODES, ERROR_TEXTS, NOTICES, inviteSchema } from '@roomwalk/shared';
import type { InviteRow } from '../db/types.js';
import { decodeId } from '../core/ids.js';
import type { AuthInfo } from '../core/auth.js';
import { AppError, fromZod } from '../core/errors.js';
import { serverNow } from '../core/clock.js';
import { TOKEN_TTL_MS } from '../auth/one-time-tokens.js';
import { newOneTimeToken } from '../auth/tokens.js';
import { mailQueue } from '../jobs/mail-job.js';
import { inviteMail, mailLinks } from '../mail/templates.js';
import { findUserByEmail } from './accounts.js';
import type { Services } from './services.js';

export const TEAM_TEXTS = {
  alreadyMember: 'This person is already in your team.',
  hasAccount: 'This email address already has a Roomwalk account.',
  inviteAccepted: 'This invite was already accepted.',
  lastAdmin: 'A company needs at least one admin.',
} as const;

const notFound = (message: string = ERROR_TEXTS.notFound) => new AppError(ERROR_CODES.NOT_FOUND, message);

function requireTeamAdmin(auth: AuthInfo): void {
  if (!auth.isCompanyAdmin && !auth.isSuperAdmin) throw new AppError(ERROR_CODES.FORBIDDEN, ERROR_TEXTS.forbidden);
}

/** inviteMember: a pending invite (14 days) and a mail with the sign-up link carrying inviteToken. */
export async function inviteMember(
  services: Services,
  auth: AuthInfo,
  input: { email: unknown; companyId: string },
): Promise<InviteRow> {
  const companyId = decodeId('Company', input.companyId);
  if (companyId !== auth.companyId) throw notFound(NOTICES.unknownCompany);
  requireTeamAdmin(auth);
  const parsed = inviteSchema.safeParse({ email: input.email });
  if (!parsed.success) throw fromZod(parsed.error.issues);
  const email = parsed.data.email;
  const existing = await findUserByEmail(services.db, email);
  if (existing)
    throw new AppError(
      ERROR_CODES.BAD_USER_INPUT,
      existing.company_id === companyId ? TEAM_TEXTS.alreadyMember : TEAM_TEXTS.hasAccount,
      {
        fields: { email: existing.company_id === companyId ? TEAM_TEXTS.alreadyMember : TEAM_TEXTS.hasAccount },
      },
    );
  const { token, hash } = newOneTimeToken();
  // Inviting the same address again adds a link and keeps the earlier ones: every mailed link stays valid for its 14
  // days until one of them is accepted (then the others are retired) or the invite is revoked. The team list shows the
  // newest pending invite of an address only (docs/decisions.md, "Invites sent again").
  const invite = await services.db
    .insertInto('team_invites')
    .values({
      company_id: companyId,
      email,
      token_hash: hash,
      invited_by: auth.userId,
      expires_at: new Date(serverNow(services).getTime() + TOKEN_TTL_MS.invite),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const company = await services.db
    .selectFrom('companies')
    .select('name')
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  const inviter = await services.db
    .selectFrom('user_profiles')
    .select(['name', 'surname'])
    .where('user_id', '=', auth.userId)
    .executeTakeFirst();
  const inviterName = inviter ? `${inviter.name} ${inviter.surname}`.trim() : 'A colleague';
  await mailQueue.enqueue(
    services,
    inviteMail({
      to: email,
      companyName: company.name,
      inviterName,
      link: mailLinks.invite(services.config.publicUrl, token, email),
    }),
  );
  return invite;
}

/** revokeMemberInvite: a pending invite of the caller's company stops working and leaves the list. */
export async function revokeInvite(services: Services, auth: AuthInfo, inviteGlobalId: string): Promise<void> {
  const id = decodeId('TeamInvite', inviteGlobalId);
  const invite = await services.db.selectFrom('team_invites').selectAll().where('id', '=', id).executeTakeFirst();
  if (!invite || invite.company_id !== auth.companyId || invite.revoked_at) throw notFound();
  requireTeamAdmin(auth);
  if (invite.accepted) throw new AppError(ERROR_CODES.CONFLICT, TEAM_TEXTS.inviteAccepted);
  // Every pending link mailed to that address stops working, not only the newest one shown in the list.
  await services.db
    .updateTable('team_invites')
    .set({ revoked_at: sql`now()` })
    .where('company_id', '=', invite.company_id)
    .where(sql<string>`lower(email)`, '=', invite.email.toLowerCase())
    .where('accepted', '=', false)
    .where('revoked_at', 'is', null)
    .execute();
}

/** makeAdminMember / revokeAdminMember: the last admin of a company cannot be removed. */
export async function setMemberAdmin(
  services: Services,
  auth: AuthInfo,
  userGlobalId: string,
  admin: boolean,
): Promise<void> {
  const id = decodeId('User', userGlobalId);
  const target = await services.db
    .selectFrom('users')
    .select(['id', 'company_id', 'role'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!target || target.company_id !== auth.companyId) throw notFound();
  requireTeamAdmin(auth);
  await services.db.transaction().execute(async (trx) => {
    // Lock the company's admins so two admins demoting each other at once cannot leave none.
    const admins = await trx
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', auth.companyId)
      .where('role', '=', 'ADMIN')
      .forUpdate()
      .execute();
    if (!admin && admins.length <= 1 && admins.some((a) => a.id === id))
      throw new AppError(ERROR_CODES.CONFLICT, TEAM_TEXTS.lastAdmin);
    await trx
      .updateTable('users')
      .set({ role: admin ? 'ADMIN' : 'USER' })
      .where('id', '=', id)
      .execute();
  });
}
