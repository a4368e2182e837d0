/**
 * Accounts: sign-up, activation, sign-in, password reset. Profile and company: profile.ts; OIDC:
 * oidc-sign-in.ts.
 */
import { sql, type Transaction } from 'kysely';
import { z } from 'zod';
import {
  ERROR_CODES,
  ERROR_TEXTS,
  FREE_TRIAL_PLAN_NAME,
  PLAN_IDS,
  VALIDATION,
  contactNumberField,
  emailField,
  formatContactNumber,
  loginSchema,
  passwordResetInputSchema,
  passwordResetRequestSchema,
  planById,
  registerInputSchema,
  uploadLimitFor,
} from '@roomwalk/shared';
import type { Database, UserRow } from '../db/types.js';
import { AppError, fromZod } from '../core/errors.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { consumeOneTimeToken, issueOneTimeToken, retireOneTimeTokens } from '../auth/one-time-tokens.js';
import { consumeRateLimit } from '../auth/rate-limit.js';
import { credentialsStamp, hashToken } from '../auth/tokens.js';
import { accountMailRequestQueue, type AccountMailRequest } from '../jobs/account-mail-job.js';
import { mailQueue } from '../jobs/mail-job.js';
import { activationMail, mailLinks, passwordResetMail } from '../mail/templates.js';
import { getLicense, rolesFor } from './licenses.js';
import { cancelDeletionOnSignIn } from './personal-data/account-deletion.js';
import type { Services } from './services.js';
import { serverNow } from '../core/clock.js';

type Trx = Transaction<Database>;

const invalidToken = () => new AppError(ERROR_CODES.INVALID_TOKEN, ERROR_TEXTS.invalidToken);
const usernameTaken = () => new AppError(ERROR_CODES.USERNAME_TAKEN, ERROR_TEXTS.usernameTaken);

/** Parses input with a shared zod schema; its issues become BAD_USER_INPUT with the spec's messages. */
export function parseInput<T>(
  schema: {
    safeParse(
      v: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } };
  },
  value: unknown,
): T {
  const r = schema.safeParse(value);
  if (!r.success) throw fromZod(r.error.issues);
  return r.data;
}

const isUniqueViolation = (err: unknown) => (err as { code?: unknown } | null)?.code === '23505';

export async function findUserByEmail(db: Services['db'] | Trx, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', email.trim().toLowerCase())
    .executeTakeFirst();
}

async function profileName(db: Services['db'], userId: string): Promise<string> {
  const p = await db.selectFrom('user_profiles').select('name').where('user_id', '=', userId).executeTakeFirst();
  return p?.name ?? 'there';
}

async function sendActivationMail(services: Services, user: UserRow, token: string, name?: string): Promise<void> {
  await mailQueue.enqueue(
    services,
    activationMail({
      to: user.username,
      name: name ?? (await profileName(services.db, user.id)),
      link: mailLinks.activation(services.config.publicUrl, token),
    }),
  );
}

/** A session for the user: the JWT with roles from the company's plan and the user's role. */
export async function issueSession(
  services: Services,
  user: UserRow,
): Promise<{ token: string; roles: string[]; expiresIn: number; deletionCancelled: boolean }> {
  // Signing in within an account deletion's grace period cancels it (docs/data-retention.md); the answer says so.
  const deletionCancelled = await cancelDeletionOnSignIn(services, user.id);
  const license = await getLicense(services.db, user.company_id);
  const roles = rolesFor(user, license, serverNow(services));
  // The session names the credentials' stamp it is issued under (services/resolve-auth.ts).
  const stamp = await services.db
    .selectFrom('users')
    .select(sql<Date | string | null>`credentials_changed_at`.as('at'))
    .where('id', '=', user.id)
    .executeTakeFirst();
  const token = await services.tokens.sign({
    userId: user.id,
    companyId: user.company_id,
    roles,
    credentialsChangedAt: credentialsStamp(stamp?.at),
  });
  return { token, roles, expiresIn: services.config.TOKEN_TTL_SECONDS, deletionCancelled };
}

/** Password sign-in: the user, or null for an unknown email and a wrong password alike (same work, same answer). */
export async function authenticate(services: Services, username: unknown, password: unknown): Promise<UserRow | null> {
  const parsed = loginSchema.safeParse({ username, password });
  if (!parsed.success) {
    await verifyPassword(null, typeof password === 'string' ? password : '');
    return null;
  }
  const user = await findUserByEmail(services.db, parsed.data.username);
  const ok = await verifyPassword(user?.password_hash, parsed.data.password);
  return ok && user ? user : null;
}

export interface NewAccount {
  email: string;
  passwordHash: string | null;
  name: string;
  surname: string;
  contactNumber: string | null;
  referredBy: string | null;
  inviteToken: string | null;
  activated: boolean;
  oidc?: { issuer: string; subject: string };
  /** The server's clock (core/clock.ts serverNow): an invite's expiry is checked by it, a trial licence starts at it. */
  now: Date;
}

/**
 * Creates user, profile and (unless an invite brings them into a company) a company with its first admin, in the
 * caller's transaction. A valid invite token joins the inviting company as USER and marks the invite accepted.
 */
export async function createAccount(trx: Trx, a: NewAccount): Promise<UserRow> {
  if (await findUserByEmail(trx, a.email)) throw usernameTaken();
  let companyId: string;
  let inviteId: string | null = null;
  if (a.inviteToken) {
    const invite = await trx
      .selectFrom('team_invites')
      .selectAll()
      .where('token_hash', '=', hashToken(a.inviteToken))
      .where('accepted', '=', false)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', a.now)
      .forUpdate()
      .executeTakeFirst();
    if (!invite) throw invalidToken();
    if (invite.email.toLowerCase() !== a.email) {
      throw new AppError(
        ERROR_CODES.INVALID_TOKEN,
        'This invite was sent to a different email address. Sign up with the invited address.',
      );
    }
    companyId = invite.company_id;
    inviteId = invite.id;
  } else {
    const company = await trx
      .insertInto('companies')
      .values({ name: `${a.name} ${a.surname}`.slice(0, 30).trim(), referred_by: a.referredBy || null })
      .returning('id')
      .executeTakeFirstOrThrow();
    companyId = company.id;
  }
  const user = await trx
    .insertInto('users')
    .values({
      username: a.email,
      password_hash: a.passwordHash,
      company_id: companyId,
      role: inviteId ? 'USER' : 'ADMIN',
      activated_at: a.activated ? new Date() : null,
      oidc_issuer: a.oidc?.issuer ?? null,
      oidc_subject: a.oidc?.subject ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('user_profiles')
    .values({ user_id: user.id, name: a.name, surname: a.surname, contact_number: a.contactNumber })
    .execute();
  if (inviteId) {
    await trx
      .updateTable('team_invites')
      .set({ accepted: true, accepted_user_id: user.id })
      .where('id', '=', inviteId)
      .execute();
    // The other links mailed to the same address (invited again) are retired once one is accepted.
    await trx
      .updateTable('team_invites')
      .set({ revoked_at: sql`now()` })
      .where('company_id', '=', companyId)
      .where(sql<string>`lower(email)`, '=', a.email)
      .where('accepted', '=', false)
      .where('revoked_at', 'is', null)
      .execute();
  }
  if (a.activated) await grantFreeTrialIfUnlicensed(trx, companyId, a.now);
  return user;
}

/** "An account without a licence is Not activated": activation gives a new company the Free Trial plan. */
export async function grantFreeTrialIfUnlicensed(trx: Trx, companyId: string, now: Date): Promise<void> {
  const plan = planById(PLAN_IDS.free)!;
  await trx
    .insertInto('licenses')
    .values({
      company_id: companyId,
      plan_id: plan.id,
      plan_name: FREE_TRIAL_PLAN_NAME,
      quantity: plan.upTo,
      upload_limit: uploadLimitFor(plan.upTo),
      start_date: now,
      period_start: now,
      end_date: null,
      subscription_id: null,
    })
    .onConflict((oc) => oc.column('company_id').doNothing())
    .execute();
}

/** Runs fn in a transaction and maps a racing duplicate username to USERNAME_TAKEN. */
export async function inAccountTransaction<T>(services: Services, fn: (trx: Trx) => Promise<T>): Promise<T> {
  try {
    return await services.db.transaction().execute(fn);
  } catch (err) {
    if (isUniqueViolation(err)) throw usernameTaken();
    throw err;
  }
}

/** userRegister: validates, checks the human, creates the account and mails the activation link. */
export async function registerUser(services: Services, input: unknown, ip: string): Promise<UserRow> {
  await consumeRateLimit(services, 'userRegister', ip);
  const data = parseInput(registerInputSchema, input);
  await consumeRateLimit(services, 'userRegisterEmail', data.username.trim().toLowerCase());
  let contactNumber: string | null = null;
  if (data.contactNumber) {
    parseInput(z.object({ contactNumber: contactNumberField }), { contactNumber: data.contactNumber });
    contactNumber = formatContactNumber(data.contactNumber);
    if (!contactNumber)
      throw new AppError(ERROR_CODES.BAD_USER_INPUT, VALIDATION.contactNumberUnparsable, {
        fields: { contactNumber: VALIDATION.contactNumberUnparsable },
      });
  }
  if (!(await services.humanCheck.verify(data.turnstileToken, ip)))
    throw new AppError(ERROR_CODES.HUMAN_CHECK_FAILED, ERROR_TEXTS.humanCheckFailed);
  // Fail fast before the costly hash; the unique index still decides races inside the transaction.
  if (await findUserByEmail(services.db, data.username)) throw usernameTaken();
  const passwordHash = await hashPassword(data.password);
  const { user, token } = await inAccountTransaction(services, async (trx) => {
    const u = await createAccount(trx, {
      email: data.username,
      passwordHash,
      name: data.name,
      surname: data.surname,
      contactNumber,
      referredBy: data.referredBy ?? null,
      inviteToken: data.inviteToken || null,
      activated: false,
      now: serverNow(services),
    });
    return { user: u, token: await issueOneTimeToken(trx, u.id, 'activation', serverNow(services)) };
  });
  // The mail job is queued after the commit (pg-boss cannot join this transaction on PGlite); a lost mail is
  // recovered with userActivationEmailResend.
  await sendActivationMail(services, user, token, data.name);
  return user;
}

/** The user an activation token was issued to, used or not (null for an unknown token). */
async function activationTokenOwner(
  db: Transaction<Database>,
  token: string,
): Promise<{ activated_at: Date | null } | null> {
  if (!token || token.length > 200) return null;
  const row = await db
    .selectFrom('one_time_tokens')
    .innerJoin('users', 'users.id', 'one_time_tokens.user_id')
    .select('users.activated_at')
    .where('one_time_tokens.token_hash', '=', hashToken(token))
    .where('one_time_tokens.purpose', '=', 'activation')
    .executeTakeFirst();
  return row ?? null;
}

/** userActivation: spends the token, marks the user activated and licenses a new company with the Free Trial. */
export async function activateUser(services: Services, token: string): Promise<UserRow> {
  return services.db.transaction().execute(async (trx) => {
    const userId = await consumeOneTimeToken(trx, 'activation', token, serverNow(services));
    if (!userId) {
      // A link clicked again (used, or retired by the first click) of an account that is active: say so.
      const owner = await activationTokenOwner(trx, token);
      if (owner?.activated_at) throw new AppError(ERROR_CODES.ACCOUNT_ALREADY_ACTIVE, ERROR_TEXTS.accountAlreadyActive);
      throw invalidToken();
    }
    const user = await trx
      .updateTable('users')
      .set({ activated_at: sql`coalesce(activated_at, now())` })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await retireOneTimeTokens(trx, userId, 'activation');
    await grantFreeTrialIfUnlicensed(trx, user.company_id, serverNow(services));
    return user;
  });
}

/**
 * Account mails asked for by an address (reset link, activation resend) are looked up and sent by a job
 * (jobs/account-mail-job.ts): the request does the same work and gives the same answer whether or not the account
 * exists (no discovery by timing).
 */
async function requestAccountMail(services: Services, request: AccountMailRequest): Promise<void> {
  await accountMailRequestQueue.enqueue(services, request);
}

/** The job: mails a reset link to a known account, an activation link to a known account not yet activated. */
export async function handleAccountMailRequest(services: Services, request: AccountMailRequest): Promise<void> {
  const user = await findUserByEmail(services.db, request.email);
  if (!user) return;
  if (request.kind === 'activation') {
    if (user.activated_at) return;
    const token = await issueOneTimeToken(services.db, user.id, 'activation', serverNow(services));
    await sendActivationMail(services, user, token);
    return;
  }
  const token = await issueOneTimeToken(services.db, user.id, 'reset', serverNow(services));
  await mailQueue.enqueue(
    services,
    passwordResetMail({
      to: user.username,
      name: await profileName(services.db, user.id),
      link: mailLinks.reset(services.config.publicUrl, token),
    }),
  );
}

/** userActivationEmailResend: always answers success; the job mails only a known, not yet activated account. */
export async function resendActivation(services: Services, email: unknown, ip: string): Promise<void> {
  await consumeRateLimit(services, 'userActivationEmailResend', ip);
  const address = parseInput(emailField, email);
  await requestAccountMail(services, { kind: 'activation', email: address });
}

/** userRequestPasswordReset: always answers success; the job mails a 60-minute link only when the account exists. */
export async function requestPasswordReset(services: Services, input: unknown, ip: string): Promise<void> {
  await consumeRateLimit(services, 'userRequestPasswordReset', ip);
  const { email } = parseInput(passwordResetRequestSchema, input);
  await requestAccountMail(services, { kind: 'reset', email });
}

/** userPasswordReset: spends the reset token, sets the new password and retires every other reset link. */
export async function resetPassword(services: Services, input: unknown): Promise<UserRow> {
  const data = parseInput(passwordResetInputSchema, input);
  const passwordHash = await hashPassword(data.newPassword);
  return services.db.transaction().execute(async (trx) => {
    const userId = await consumeOneTimeToken(trx, 'reset', data.token, serverNow(services));
    if (!userId) throw invalidToken();
    await retireOneTimeTokens(trx, userId, 'reset');
    // credentials_changed_at (migration 0010, not in the shared row types) ends every older session.
    await sql`update users set credentials_changed_at = now() where id = ${userId}`.execute(trx);
    return trx
      .updateTable('users')
      .set({ password_hash: passwordHash })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}
