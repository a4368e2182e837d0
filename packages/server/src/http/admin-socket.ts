/**
 * The admin command's local channel. The embedded database (PGlite in DATA_DIR) serves one process: a second process
 * opening the same folder writes into nothing the server sees, and risks the data. So whichever process holds the
 * folder (the server, or `npm run admin` when no server runs) listens on a unix socket in it; the socket's mode
 * (0600) lets only the account that runs the product connect. The CLI asks a running server over it; a server
 * refuses to start while another process answers on it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Services } from '../services/services.js';
import { AdminCommandError, runAdminCommand } from '../services/admin-commands.js';

/** Room for the path in sockaddr_un (108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;
const MAX_BODY = 16 * 1024;

export const ADMIN_TEXTS = {
  starting: 'The server is still starting; run the command again in a moment.',
  busy: 'Another admin command is using the database; run this one again when it has finished.',
  inUse: (dataDir: string) =>
    `Another Roomwalk process (a server or an admin command) is using the data folder ${dataDir}. Stop it first.`,
  failed: (message: string) => `The running server could not run the command: ${message}`,
} as const;

/** Where the process holding this data folder listens. */
export function adminSocketPath(dataDir: string): string {
  const inFolder = path.join(dataDir, 'admin.sock');
  if (Buffer.byteLength(inFolder) <= MAX_SOCKET_PATH) return inFolder;
  // A deep DATA_DIR: a short path derived from it, still one per folder.
  return path.join(
    os.tmpdir(),
    `roomwalk-admin-${createHash('sha256').update(dataDir).digest('hex').slice(0, 20)}.sock`,
  );
}

export interface AdminReply {
  ok: boolean;
  message: string;
}

/** Sends a command to the process holding the folder; undefined when nobody listens there. */
export function askAdminSocket(socketPath: string, args: readonly string[]): Promise<AdminReply | undefined> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { socketPath, method: 'POST', path: '/command', headers: { 'content-type': 'application/json' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => {
          try {
            resolve(JSON.parse(body) as AdminReply);
          } catch {
            reject(
              new Error(
                `The process on ${socketPath} gave an answer that is not the admin channel's (status ${res.statusCode}).`,
              ),
            );
          }
        });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      // No socket, or one left behind by a process that died: nobody holds the folder.
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') resolve(undefined);
      else reject(err);
    });
    req.end(JSON.stringify({ args }));
  });
}

export interface AdminChannel {
  /** From now on commands run against these services (until then they are refused as "starting"). */
  serve(services: Services): void;
  close(): Promise<void>;
}

/**
 * Takes the folder's socket, or throws when another process answers on it. Commands are refused with `refusal`
 * until `serve()` is called.
 */
export async function openAdminChannel(dataDir: string, refusal: string = ADMIN_TEXTS.starting): Promise<AdminChannel> {
  const socketPath = adminSocketPath(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  if (await askAdminSocket(socketPath, ['ping'])) throw new Error(ADMIN_TEXTS.inUse(dataDir));
  fs.rmSync(socketPath, { force: true });
  let services: Services | undefined;
  const server = http.createServer((req, res) => {
    const reply = (status: number, body: AdminReply) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method !== 'POST' || req.url !== '/command') return reply(404, { ok: false, message: 'Not found' });
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_BODY) req.destroy();
    });
    req.on('end', () => {
      if (!services) return reply(503, { ok: false, message: refusal });
      let args: unknown;
      try {
        args = (JSON.parse(body) as { args?: unknown }).args;
      } catch {
        args = undefined;
      }
      if (!Array.isArray(args) || !args.every((a) => typeof a === 'string'))
        return reply(400, { ok: false, message: 'Expected {"args": [string]}.' });
      runAdminCommand(services.db, args, services).then(
        (message) => reply(200, { ok: true, message }),
        (err: unknown) => {
          if (err instanceof AdminCommandError) return reply(400, { ok: false, message: err.message });
          services?.log.error({ err }, 'admin command failed');
          reply(500, { ok: false, message: ADMIN_TEXTS.failed(err instanceof Error ? err.message : String(err)) });
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  // The default umask already keeps others from connecting (no write bit); 0600 keeps the group out too.
  fs.chmodSync(socketPath, 0o600);
  return {
    serve(s) {
      services = s;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
