/**
 * The operator's commands (npm run admin): the same rules whether the CLI opens the database or a running server runs
 * them. The deletion sweep needs the running server (it removes files from storage and sends mails), so it runs only
 * through the server's admin socket.
 */
import { sql, type Kysely } from 'kysely';
import { PLAN_IDS, planById } from '@roomwalk/shared';
import { serverNow } from '../core/clock.js';
import type { Database } from '../db/types.js';
import { grantOfflineLicense } from './billing/licenses.js';
import { sweepPersonalData } from './personal-data/purge.js';
import type { Services } from './services.js';

const ADMIN_USAGE = `Usage: npm run admin -- <command> [email]
Commands:
  make-superadmin <email>        give the account the superadmin role
  revoke-superadmin <email>      take the superadmin role away
  grant-offline-license <email>  put the account's company on the Offline License plan
  show-account <email>           what the product holds for the account, and when it will be deleted if asked
  run-deletion-sweep             delete now the accounts whose grace period has ended (the 15-minute sweep)`;

export const ADMIN_COMMAND_TEXTS = {
  sweepNeedsServer:
    'The deletion sweep runs inside the server (it removes files from storage and sends mails): start it (npm start) and run this command again while it runs. On PostgreSQL the workers run the sweep every 15 minutes.',
  swept: (accounts: number, exports: number) =>
    `Deleted ${accounts} ${accounts === 1 ? 'account' : 'accounts'} whose grace period had ended; removed ${exports} expired export ${exports === 1 ? 'file' : 'files'}.`,
} as const;

/** A refusal the operator reads as is (bad arguments, unknown account). */
export class AdminCommandError extends Error {
  override name = 'AdminCommandError';
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What `show-account` prints: the account, its company and what hangs from them, and a scheduled deletion. */
async function describeAccount(db: Kysely<Database>, userId: string, email: string): Promise<string> {
  const user = await db
    .selectFrom('users')
    .innerJoin('companies', 'companies.id', 'users.company_id')
    .select(['users.id', 'users.role', 'users.company_id', 'companies.name as company_name'])
    .where('users.id', '=', userId)
    .executeTakeFirstOrThrow();
  const count = (q: { executeTakeFirstOrThrow(): Promise<{ n: number }> }) =>
    q.executeTakeFirstOrThrow().then((r) => Number(r.n));
  const n = sql<number>`count(*)::int`.as('n');
  const members = await count(db.selectFrom('users').select(n).where('company_id', '=', user.company_id));
  const tours = await count(db.selectFrom('tours').select(n).where('owner_id', '=', userId));
  const clips = await count(
    db
      .selectFrom('clips')
      .innerJoin('tours', 'tours.id', 'clips.tour_id')
      .select(n)
      .where('tours.owner_id', '=', userId),
  );
  const markers = await count(
    db
      .selectFrom('markers')
      .innerJoin('tours', 'tours.id', 'markers.tour_id')
      .select(n)
      .where('tours.owner_id', '=', userId),
  );
  const exports = await count(db.selectFrom('data_exports').select(n).where('user_id', '=', userId));
  const deletion = await db
    .selectFrom('account_deletions')
    .select('purge_after')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return [
    `${email}: account ${user.id}, ${user.role === 'ADMIN' ? 'admin' : 'member'} of ${user.company_name} (company ${user.company_id}, ${plural(members, 'member')}).`,
    `Tours owned: ${tours} (${plural(clips, 'clip')}, ${plural(markers, 'marker')}); data exports: ${exports}.`,
    deletion
      ? `Deletion scheduled: the sweep deletes the account after ${new Date(deletion.purge_after).toISOString()}.`
      : 'No deletion asked.',
  ].join('\n');
}

/**
 * Runs one command and returns what to print. `services`: the running server's, when the command came through its
 * admin socket (the deletion sweep needs them); the CLI on its own database passes none.
 */
export async function runAdminCommand(
  db: Kysely<Database>,
  args: readonly string[],
  services?: Services,
): Promise<string> {
  const [command, emailArg] = args;
  if (command === 'run-deletion-sweep') {
    if (args.length > 1) throw new AdminCommandError(ADMIN_USAGE);
    if (!services) throw new AdminCommandError(ADMIN_COMMAND_TEXTS.sweepNeedsServer);
    // The server's clock: the system's, or on a development server one an end-to-end test moved past the grace period.
    const done = await sweepPersonalData(services, serverNow(services));
    return ADMIN_COMMAND_TEXTS.swept(done.accounts, done.exports);
  }
  if (!command || !emailArg || args.length > 2) throw new AdminCommandError(ADMIN_USAGE);
  const email = emailArg.trim().toLowerCase();
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', email)
    .executeTakeFirst();
  if (!user) throw new AdminCommandError(`No account with the email ${email}.`);
  switch (command) {
    case 'make-superadmin':
    case 'revoke-superadmin': {
      const on = command === 'make-superadmin';
      await db.updateTable('users').set({ is_superadmin: on }).where('id', '=', user.id).execute();
      return on ? `${email} is now a super admin.` : `${email} is no longer a super admin.`;
    }
    case 'grant-offline-license': {
      const plan = planById(PLAN_IDS.offline)!;
      // The same grant as licenseGrantOffline: keeps the running month of uploads (docs/plans.md) and applies the
      // allowance.
      // Run without a server (the command line), there is no moved clock: the system's is the server's.
      await grantOfflineLicense(db, user.company_id, services ? serverNow(services) : new Date());
      return `The company of ${email} now holds the ${plan.planName} (${plan.upTo} active tours).`;
    }
    case 'show-account':
      return describeAccount(db, user.id, email);
    default:
      throw new AdminCommandError(`Unknown command "${command}".\n${ADMIN_USAGE}`);
  }
}
