/**
 * Operator commands on the configured database (same settings as the server):
 *   npm run admin -- make-superadmin <email>
 *   npm run admin -- revoke-superadmin <email>
 *   npm run admin -- grant-offline-license <email>
 * On the embedded PGlite database, stop the server first: PGlite allows one process at a time.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { PLAN_IDS, planById } from '@roomwalk/shared';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import type { Database } from '../db/types.js';
import { grantOfflineLicense } from '../services/billing/licenses.js';

export const ADMIN_USAGE = `Usage: npm run admin -- <command> <email>
Commands:
  make-superadmin <email>        give the account the superadmin role
  revoke-superadmin <email>      take the superadmin role away
  grant-offline-license <email>  put the account's company on the Offline License plan`;

export class AdminCommandError extends Error {
  override name = 'AdminCommandError';
}

/** Runs one command against the database and returns what to print. */
export async function runAdminCommand(db: Kysely<Database>, args: readonly string[]): Promise<string> {
  const [command, emailArg] = args;
  if (!command || !emailArg || args.length > 2) throw new AdminCommandError(ADMIN_USAGE);
  const email = emailArg.trim().toLowerCase();
  const user = await db.selectFrom('users').selectAll().where(sql<string>`lower(username)`, '=', email).executeTakeFirst();
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
      // The same grant as licenseGrantOffline: keeps the running month of uploads (docs/plans.md) and applies the allowance.
      await grantOfflineLicense(db, user.company_id);
      return `The company of ${email} now holds the ${plan.planName} (${plan.upTo} active tours).`;
    }
    default:
      throw new AdminCommandError(`Unknown command "${command}".\n${ADMIN_USAGE}`);
  }
}

async function main(argv: string[]): Promise<number> {
  const config = loadConfig(process.env);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR.startsWith('memory://') ? config.DATA_DIR : path.join(config.dataDir, 'pg'),
  });
  try {
    console.log(await runAdminCommand(database.db, argv));
    return 0;
  } catch (err) {
    console.error(err instanceof AdminCommandError ? err.message : err);
    return 1;
  } finally {
    await database.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
