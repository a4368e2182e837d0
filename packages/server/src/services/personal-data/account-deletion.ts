/**
 * Deleting one's own account (docs/data-retention.md). Asking is confirmed with the account's password, or, for an
 * account that signs in with Google only, by a link mailed to it. The account is then scheduled: its sessions end, a
 * mail says what goes and when, and the sweep deletes it after ACCOUNT_DELETION_GRACE_DAYS (./purge.ts). Signing in
 * before then cancels it. The last admin of a company that keeps other members is refused (they make someone else
 * admin first); the last member takes the company with them, once any paid plan is cancelled.
 */
import { sql, type Kysely } from 'kysely';
import { ERROR_CODES } from '@roomwalk/shared';
import { verifyPassword } from '../../auth/passwords.js';
import { reserveLoginAttempt } from '../../auth/rate-limit.js';
import type { AuthInfo } from '../../core/auth.js';
import { AppError } from '../../core/errors.js';
import type { Database } from '../../db/types.js';
import { mailQueue } from '../../jobs/mail-job.js';
import type { Services } from '../services.js';
import {
  deletionCancelledMail,
  deletionConfirmMail,
  deletionScheduledMail,
  type DeletionPlan,
} from './personal-data-mail.js';
import {
  checkLink,
  DELETION_CONFIRM_HOURS,
  deletionConfirmUrl,
  deletionLinkSubject,
  type LinkCheck,
} from './signing.js';
import { serverNow } from '../../core/clock.js';
import { DAY_MS } from '../../core/days.js';

const DELETION_TEXTS = {
  lastAdmin: (company: string) =>
    `You are the only admin of ${company}, and others still work in it. Make one of them an admin on the Team page first, then delete your account.`,
  paidPlan:
    'Your company still has a paid plan. Cancel it under Manage billing first; your account can be deleted once it no longer renews.',
  passwordRequired: 'Enter your password to confirm.',
  passwordWrong: 'This password is not right.',
  apiKey: 'Only a signed-in person can delete their account.',
} as const;

type Db = Kysely<Database>;

export interface DeletionPreview {
  /** Why the account cannot be deleted now, in the user's words; null when it can. */
  refusal: string | null;
  plan: DeletionPlan;
  /** False for an account that signs in with Google only: the deletion is confirmed by mail. */
  needsPassword: boolean;
}

/**
 * What deleting `userId` would do, read on `db` (a transaction that locked the company's users, when scheduling).
 * Members who are waiting for their own deletion do not count as staying.
 */
async function planDeletion(
  services: Services,
  db: Db,
  userId: string,
  now: Date,
): Promise<DeletionPreview & { email: string; name: string; companyId: string }> {
  const user = await db
    .selectFrom('users')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'users.id')
    .innerJoin('companies', 'companies.id', 'users.company_id')
    .select([
      'users.id',
      'users.username',
      'users.role',
      'users.password_hash',
      'users.company_id',
      'companies.name as company_name',
      'user_profiles.name',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirstOrThrow();
  const staying = await db
    .selectFrom('users')
    .leftJoin('account_deletions', 'account_deletions.user_id', 'users.id')
    .select(['users.id', 'users.role'])
    .where('users.company_id', '=', user.company_id)
    .where('users.id', '!=', userId)
    .where('account_deletions.user_id', 'is', null)
    .execute();
  const companyToo = staying.length === 0;
  const tours = await db
    .selectFrom('tours')
    .select(sql<number>`count(*)::int`.as('n'))
    .where(companyToo ? 'company_id' : 'owner_id', '=', companyToo ? user.company_id : userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  const graceDays = services.config.ACCOUNT_DELETION_GRACE_DAYS;
  const plan: DeletionPlan = {
    companyToo,
    companyName: user.company_name,
    tours: Number(tours.n),
    graceDays,
    purgeAfter: new Date(now.getTime() + graceDays * DAY_MS),
  };
  let refusal: string | null = null;
  if (user.role === 'ADMIN' && !companyToo && !staying.some((m) => m.role === 'ADMIN'))
    refusal = DELETION_TEXTS.lastAdmin(user.company_name);
  if (companyToo && (await hasRenewingPlan(db, user.company_id))) refusal = DELETION_TEXTS.paidPlan;
  return {
    refusal,
    plan,
    needsPassword: user.password_hash !== null,
    email: user.username,
    name: user.name ?? 'there',
    companyId: user.company_id,
  };
}

/** A paid subscription that still renews: deleting the company would leave it charging a card nobody can manage. */
async function hasRenewingPlan(db: Db, companyId: string): Promise<boolean> {
  const license = await db
    .selectFrom('licenses')
    .select(['subscription_id', 'end_date'])
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return !!license?.subscription_id && license.end_date === null;
}

function requirePerson(auth: AuthInfo): void {
  if (auth.apiKeyId) throw new AppError(ERROR_CODES.FORBIDDEN, DELETION_TEXTS.apiKey);
}

/** accountDeletionPreview: what the dialog says before the user confirms. */
export async function previewDeletion(
  services: Services,
  auth: AuthInfo,
  now = serverNow(services),
): Promise<DeletionPreview> {
  requirePerson(auth);
  const { refusal, plan, needsPassword } = await planDeletion(services, services.db, auth.userId, now);
  return { refusal, plan, needsPassword };
}

export type DeletionRequestOutcome =
  | { status: 'SCHEDULED'; purgeAfter: Date }
  | { status: 'CONFIRMATION_SENT'; purgeAfter: null };

/**
 * accountDeletionRequest: with the account's password, schedules the deletion at once; an account without a password
 * gets a confirmation link by mail instead. A wrong password counts as a failed sign-in of the account.
 */
export async function requestDeletion(
  services: Services,
  auth: AuthInfo,
  password: unknown,
  now = serverNow(services),
): Promise<DeletionRequestOutcome> {
  requirePerson(auth);
  const user = await services.db
    .selectFrom('users')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'users.id')
    .select(['users.username', 'users.password_hash', 'user_profiles.name'])
    .where('users.id', '=', auth.userId)
    .executeTakeFirstOrThrow();
  const preview = await planDeletion(services, services.db, auth.userId, now);
  if (preview.refusal) throw new AppError(ERROR_CODES.CONFLICT, preview.refusal);
  if (user.password_hash === null) {
    await mailQueue.enqueue(
      services,
      deletionConfirmMail({
        to: user.username,
        name: user.name ?? 'there',
        link: (await deletionConfirmLink(services, auth.userId, now.getTime()))!,
        hours: DELETION_CONFIRM_HOURS,
      }),
    );
    return { status: 'CONFIRMATION_SENT', purgeAfter: null };
  }
  if (typeof password !== 'string' || password === '')
    throw new AppError(ERROR_CODES.BAD_USER_INPUT, DELETION_TEXTS.passwordRequired, {
      fields: { password: DELETION_TEXTS.passwordRequired },
    });
  const attempt = await reserveLoginAttempt(services, user.username);
  if (!(await verifyPassword(user.password_hash, password)))
    throw new AppError(ERROR_CODES.BAD_USER_INPUT, DELETION_TEXTS.passwordWrong, {
      fields: { password: DELETION_TEXTS.passwordWrong },
    });
  await attempt.refund();
  const purgeAfter = await scheduleDeletion(services, auth.userId, now);
  return { status: 'SCHEDULED', purgeAfter };
}

/**
 * Schedules the deletion (checked again under the company's lock: two admins leaving at once cannot leave members with
 * no admin), ends every session and mails what goes and when. Scheduling again keeps the first date.
 */
export async function scheduleDeletion(services: Services, userId: string, now = serverNow(services)): Promise<Date> {
  const { preview, purgeAfter } = await services.db.transaction().execute(async (trx) => {
    const me = await trx.selectFrom('users').select('company_id').where('id', '=', userId).executeTakeFirstOrThrow();
    await trx.selectFrom('users').select('id').where('company_id', '=', me.company_id).forUpdate().execute();
    const preview = await planDeletion(services, trx, userId, now);
    if (preview.refusal) throw new AppError(ERROR_CODES.CONFLICT, preview.refusal);
    const row = await trx
      .insertInto('account_deletions')
      .values({
        user_id: userId,
        company_id: preview.companyId,
        requested_at: now,
        purge_after: preview.plan.purgeAfter,
      })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ requested_at: sql`account_deletions.requested_at` }))
      .returning('purge_after')
      .executeTakeFirstOrThrow();
    // credentials_changed_at (migration 0010) ends every session issued before now: the user is signed out everywhere.
    await sql`update users set credentials_changed_at = now() where id = ${userId}`.execute(trx);
    return { preview, purgeAfter: new Date(row.purge_after) };
  });
  await mailQueue.enqueue(
    services,
    deletionScheduledMail({
      to: preview.email,
      name: preview.name,
      plan: { ...preview.plan, purgeAfter },
      signInUrl: `${services.config.publicUrl}/login`,
    }),
  );
  return purgeAfter;
}

/** When the account's sessions last ended, as deletion links sign it (null: no such account). */
async function credentialsStamp(services: Services, userId: string): Promise<string | null> {
  // The column (migration 0010) is not in the table's type; resolve-auth.ts reads it the same way.
  const row = await services.db
    .selectFrom('users')
    .select(sql<Date | string | null>`credentials_changed_at`.as('at'))
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  const at = row.at;
  return at === null ? 'never' : String(new Date(at).getTime());
}

/** The mailed confirmation link of an account without a password, as of now (null: no such account). */
export async function deletionConfirmLink(
  services: Services,
  userId: string,
  nowMs = serverNow(services).getTime(),
): Promise<string | null> {
  const stamp = await credentialsStamp(services, userId);
  return stamp === null ? null : deletionConfirmUrl(services, userId, stamp, nowMs);
}

/** Whether a deletion confirmation is valid now: signed for this account as it is (a used link no longer is). */
export async function checkDeletionLink(
  services: Services,
  userId: string,
  signature: unknown,
  expires: unknown,
  nowMs = serverNow(services).getTime(),
): Promise<LinkCheck> {
  const stamp = await credentialsStamp(services, userId);
  if (stamp === null) return 'invalid';
  return checkLink(services, 'account-deletion', deletionLinkSubject(userId, stamp), signature, expires, nowMs);
}

/** The mailed confirmation link of an account without a password: schedules its deletion. */
export async function confirmDeletionLink(
  services: Services,
  userId: string,
  expires: unknown,
  signature: unknown,
  now = serverNow(services),
): Promise<Exclude<LinkCheck, 'valid'> | { refused: string } | { purgeAfter: Date }> {
  const check = await checkDeletionLink(services, userId, signature, expires, now.getTime());
  if (check !== 'valid') return check;
  try {
    return { purgeAfter: await scheduleDeletion(services, userId, now) };
  } catch (err) {
    if (err instanceof AppError && err.code === ERROR_CODES.CONFLICT) return { refused: err.message };
    throw err;
  }
}

/** Signing in within the grace period cancels the deletion (says so by mail, and records when on the user's row). */
export async function cancelDeletionOnSignIn(services: Services, userId: string): Promise<boolean> {
  const gone = await services.db
    .deleteFrom('account_deletions')
    .where('user_id', '=', userId)
    .returning('user_id')
    .executeTakeFirst();
  if (!gone) return false;
  // Kept so the console can say so on screen and on the Your data card.
  await services.db.updateTable('users').set({ deletion_cancelled_at: new Date() }).where('id', '=', userId).execute();
  const user = await services.db
    .selectFrom('users')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'users.id')
    .select(['users.username', 'user_profiles.name'])
    .where('users.id', '=', userId)
    .executeTakeFirstOrThrow();
  await mailQueue.enqueue(services, deletionCancelledMail({ to: user.username, name: user.name ?? 'there' }));
  return true;
}
