/**
 * `npm run admin -- make-superadmin | grant-offline-license <email>` on the configured database: directly when no
 * server runs, through the running server's admin socket when one holds the embedded database.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_TRIAL_PLAN_NAME, ROLES, decodeToken } from '@roomwalk/shared';
import { AdminCommandError, runAdminCommand } from '../src/services/admin-commands.js';
import { ADMIN_TEXTS } from '../src/http/admin-socket.js';
import { hashPassword } from '../src/auth/passwords.js';
import { openDatabase } from '../src/db/database.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { login, PASSWORD, signUpActivated, uniqueEmail } from './helpers/accounts.js';
import { freePort, startProcess, stopProcess, serverRoot, type Child } from './helpers/processes.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe.each(DB_KINDS)('admin commands on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_DISABLED: true });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('makes a super admin and grants the Offline License, which the next token shows', async () => {
    const email = uniqueEmail('ops');
    const { token } = await signUpActivated(t, { username: email });
    expect(await runAdminCommand(t.app.services.db, ['make-superadmin', email.toUpperCase()])).toMatch(/super admin/);
    expect(await runAdminCommand(t.app.services.db, ['grant-offline-license', email])).toMatch(/Offline License/);
    const me = await t.gql(
      '{ me { user { isSuperAdmin company { license { planName quantity uploadLimit } } } } }',
      {},
      token,
    );
    expect(me.data.me.user).toEqual({
      isSuperAdmin: true,
      company: { license: { planName: 'Offline License', quantity: 500, uploadLimit: 1000 } },
    });
    const { body } = await login(t, email);
    expect(decodeToken(body.access_token)!.roles).toEqual([ROLES.offlicenselicense, ROLES.admin, ROLES.superadmin]);
    await runAdminCommand(t.app.services.db, ['revoke-superadmin', email]);
    expect(decodeToken((await login(t, email)).body.access_token)!.roles).toEqual([
      ROLES.offlicenselicense,
      ROLES.admin,
    ]);
  });

  it('keeps the running month of uploads when it grants the Offline License (docs/plans.md)', async () => {
    const email = uniqueEmail('offmonth');
    const { token } = await signUpActivated(t, { username: email });
    const db = t.app.services.db;
    const user = await db
      .selectFrom('users')
      .select(['id', 'company_id'])
      .where('username', '=', email)
      .executeTakeFirstOrThrow();
    const before = await db
      .selectFrom('licenses')
      .select('period_start')
      .where('company_id', '=', user.company_id)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('uploads')
      .values({
        key: `uploads/${email}.mp4`,
        company_id: user.company_id,
        user_id: user.id,
        extension: 'mp4',
        submitted_at: before.period_start,
      })
      .execute();
    const counts = '{ me { user { company { license { planName monthlyUploadedTours } } } } }';
    expect((await t.gql(counts, {}, token)).data.me.user.company.license).toEqual({
      planName: FREE_TRIAL_PLAN_NAME,
      monthlyUploadedTours: 1,
    });
    await runAdminCommand(db, ['grant-offline-license', email]);
    expect((await t.gql(counts, {}, token)).data.me.user.company.license).toEqual({
      planName: 'Offline License',
      monthlyUploadedTours: 1,
    });
    const after = await db
      .selectFrom('licenses')
      .select('period_start')
      .where('company_id', '=', user.company_id)
      .executeTakeFirstOrThrow();
    expect(after.period_start.getTime()).toBe(before.period_start.getTime());
  });

  it('refuses unknown accounts and commands with a readable message', async () => {
    await expect(runAdminCommand(t.app.services.db, ['make-superadmin', 'nobody@example.com'])).rejects.toThrow(
      /No account with the email/,
    );
    await expect(runAdminCommand(t.app.services.db, ['fly', 'a@b.c'])).rejects.toThrow(AdminCommandError);
    await expect(runAdminCommand(t.app.services.db, [])).rejects.toThrow(/Usage: npm run admin/);
  });
});

const runAdmin = (dataDir: string, ...args: string[]) =>
  promisify(execFile)('npm', ['run', '--silent', 'admin', '--', ...args], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'development', LOG_LEVEL: 'silent' },
    // Generous: tsx compiles the CLI on a cold start, slow on a loaded machine.
    timeout: 180_000,
  });

/** An activated account with the test password, written before any server opens the folder. */
async function seedAccount(dataDir: string, email: string): Promise<void> {
  const database = await openDatabase({ dataDir: path.join(dataDir, 'pg') });
  const company = await database.db
    .insertInto('companies')
    .values({ name: 'CLI Co' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await database.db
    .insertInto('users')
    .values({
      username: email,
      password_hash: await hashPassword(PASSWORD),
      company_id: company.id,
      activated_at: new Date(),
      oidc_issuer: null,
      oidc_subject: null,
    })
    .execute();
  await database.close();
}

/** `npm start`'s server entry on this data folder and port, ready once it says it runs. */
function startServer(dataDir: string, port: number): Child<true> {
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    RATE_LIMIT_DISABLED: 'true',
  };
  return startProcess(
    process.execPath,
    ['--import', 'tsx', 'src/index.ts'],
    env,
    (line) => (line.includes('Roomwalk is running') ? true : undefined),
    serverRoot,
  );
}

describe('npm run admin while the server runs on the embedded database', () => {
  let dataDir: string;
  let server: Child<true> | undefined;
  let url: string;
  const email = uniqueEmail('running');
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-admin-run-'));
    await seedAccount(dataDir, email);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = startServer(dataDir, port);
    await server.ready;
  }, 300_000);
  afterAll(async () => {
    await stopProcess(server?.proc);
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const tokenRoles = async () => {
    // login() needs only the server's address.
    const token = (await login({ url } as TestApp, email)).body.access_token as string;
    return { token, roles: decodeToken(token)!.roles };
  };

  it('asks the running server, which makes the change it reports, and the change outlives a restart', {
    timeout: 600_000,
  }, async () => {
    expect((await tokenRoles()).roles).not.toContain(ROLES.superadmin);
    expect((await runAdmin(dataDir, 'make-superadmin', email)).stdout).toContain(`${email} is now a super admin.`);
    expect((await runAdmin(dataDir, 'grant-offline-license', email)).stdout).toContain(
      'now holds the Offline License (500 active tours)',
    );
    const { token, roles } = await tokenRoles();
    expect(roles).toEqual(expect.arrayContaining([ROLES.offlicenselicense, ROLES.superadmin]));
    const me = await fetch(`${url}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ me { user { isSuperAdmin company { license { planName } } } } }' }),
    });
    expect(((await me.json()) as any).data.me.user).toEqual({
      isSuperAdmin: true,
      company: { license: { planName: 'Offline License' } },
    });

    // A refusal from the server is printed as a failure, not as a success.
    const refused = runAdmin(dataDir, 'make-superadmin', 'nobody@example.com');
    await expect(refused).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No account with the email nobody@example.com.'),
    });

    await stopProcess(server?.proc);
    const database = await openDatabase({ dataDir: path.join(dataDir, 'pg') });
    const row = await database.db
      .selectFrom('users')
      .select('is_superadmin')
      .where('username', '=', email)
      .executeTakeFirstOrThrow();
    await database.close();
    expect(row.is_superadmin).toBe(true);
  });
});

describe('a second server on the same data folder', () => {
  it('refuses to start while the first one runs', { timeout: 400_000 }, async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-admin-two-'));
    const first = startServer(dataDir, await freePort());
    try {
      await first.ready;
      const second = startServer(dataDir, await freePort());
      expect((await second.exited).code).toBe(1);
      expect(second.output.join('\n')).toContain(ADMIN_TEXTS.inUse(dataDir));
    } finally {
      await stopProcess(first.proc);
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('npm run admin as a process', () => {
  it('works on the embedded database in DATA_DIR', { timeout: 240_000 }, async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-admin-'));
    try {
      const email = uniqueEmail('cli');
      let database = await openDatabase({ dataDir: path.join(dataDir, 'pg') });
      const company = await database.db
        .insertInto('companies')
        .values({ name: 'CLI Co' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await database.db
        .insertInto('users')
        .values({
          username: email,
          password_hash: null,
          company_id: company.id,
          activated_at: null,
          oidc_issuer: null,
          oidc_subject: null,
        })
        .execute();
      await database.close();

      const { stdout } = await runAdmin(dataDir, 'make-superadmin', email);
      expect(stdout).toContain(`${email} is now a super admin.`);

      database = await openDatabase({ dataDir: path.join(dataDir, 'pg') });
      const row = await database.db
        .selectFrom('users')
        .select('is_superadmin')
        .where('username', '=', email)
        .executeTakeFirstOrThrow();
      await database.close();
      expect(row.is_superadmin).toBe(true);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
