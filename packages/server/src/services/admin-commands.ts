/**
 * The operator's commands (npm run admin): the same rules whether the CLI opens the database or a running server runs
 * them.
 */
import { sql, type Kysely } from 'kysely';
import { PLAN_IDS, planById } from '@roomwalk/shared';
import type { Database } from '../db/types.js';
import { grantOfflineLicense } from './billing/licenses.js';

const ADMIN_USAGE = `Usage: npm run admin -- <command> <email>
Commands:
  make-superadmin <email>        give the account the superadmin role
  revoke-superadmin <email>      take the superadmin role away
  grant-offline-license <email>  put the account's company on the Offline License plan`;

/** A refusal the operator reads as is (bad arguments, unknown account). */
export class AdminCommandError extends Error {
  override name = 'AdminCommandError';
}

/** Runs one command against the database and returns what to print. */
export async function runAdminCommand(db: Kysely<Database>, args: readonly string[]): Promise<string> {
  const [command, emailArg] = args;
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
      await grantOfflineLicense(db, user.company_id);
      return `The company of ${email} now holds the ${plan.planName} (${plan.upTo} active tours).`;
    }
    default:
      throw new AdminCommandError(`Unknown command "${command}".\n${ADMIN_USAGE}`);
  }
}
