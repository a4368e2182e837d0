/**
 * Operator commands on the configured database (same settings as the server):
 *   npm run admin -- make-superadmin <email>
 *   npm run admin -- revoke-superadmin <email>
 *   npm run admin -- grant-offline-license <email>
 *   npm run admin -- show-account <email>
 *   npm run admin -- run-deletion-sweep      (through a running server only)
 * On the embedded database a running server holds the data folder: the command asks that server over the folder's
 * admin socket (http/admin-socket.ts) and prints what the server did. With no server running, or on PostgreSQL, it
 * opens the database itself (and holds the socket meanwhile, so a server does not start on the folder under it).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { ADMIN_TEXTS, askAdminSocket, openAdminChannel, adminSocketPath } from '../http/admin-socket.js';
import { AdminCommandError, runAdminCommand } from '../services/admin-commands.js';

/** What to print, and on which stream. */
interface Outcome {
  ok: boolean;
  message: string;
}

async function runOnOwnDatabase(databaseUrl: string | undefined, dataDir: string, args: string[]): Promise<Outcome> {
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    return { ok: true, message: await runAdminCommand(database.db, args) };
  } catch (err) {
    if (err instanceof AdminCommandError) return { ok: false, message: err.message };
    throw err;
  } finally {
    await database.close();
  }
}

/** Runs the command where the database is: through the running server, or on the database directly. */
export async function admin(env: Record<string, string | undefined>, args: string[]): Promise<Outcome> {
  const config = loadConfig(env);
  if (config.DATABASE_URL) return runOnOwnDatabase(config.DATABASE_URL, config.dataDir, args);
  if (config.DATA_DIR.startsWith('memory://'))
    return { ok: false, message: 'DATA_DIR is memory://: there is no database to change.' };
  const viaServer = await askAdminSocket(adminSocketPath(config.dataDir), args);
  if (viaServer) return viaServer;
  // No server: hold the folder while the command runs.
  let channel: Awaited<ReturnType<typeof openAdminChannel>>;
  try {
    channel = await openAdminChannel(config.dataDir, ADMIN_TEXTS.busy);
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  try {
    return await runOnOwnDatabase(undefined, path.join(config.dataDir, 'pg'), args);
  } finally {
    await channel.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  admin(process.env, process.argv.slice(2)).then(
    ({ ok, message }) => {
      if (ok) console.log(message);
      else console.error(message);
      process.exit(ok ? 0 : 1);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
