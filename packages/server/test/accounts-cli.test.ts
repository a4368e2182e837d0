/** `npm run admin -- make-superadmin | grant-offline-license <email>` on the configured database. */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_TRIAL_PLAN_NAME, ROLES, decodeToken } from '@roomwalk/shared';
import { AdminCommandError, runAdminCommand } from '../src/cli/admin.js';
import { openDatabase } from '../src/db/database.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { login, signUpActivated, uniqueEmail } from './helpers/accounts.js';

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
    const me = await t.gql('{ me { user { isSuperAdmin company { license { planName quantity uploadLimit } } } } }', {}, token);
    expect(me.data.me.user).toEqual({ isSuperAdmin: true, company: { license: { planName: 'Offline License', quantity: 500, uploadLimit: 1000 } } });
    const { body } = await login(t, email);
    expect(decodeToken(body.access_token)!.roles).toEqual([ROLES.offlicenselicense, ROLES.admin, ROLES.superadmin]);
    await runAdminCommand(t.app.services.db, ['revoke-superadmin', email]);
    expect(decodeToken((await login(t, email)).body.access_token)!.roles).toEqual([ROLES.offlicenselicense, ROLES.admin]);
  });

  it('keeps the running month of uploads when it grants the Offline License (docs/plans.md; issue 16 item 14)', async () => {
    const email = uniqueEmail('offmonth');
    const { token } = await signUpActivated(t, { username: email });
    const db = t.app.services.db;
    const user = await db.selectFrom('users').select(['id', 'company_id']).where('username', '=', email).executeTakeFirstOrThrow();
    const before = await db.selectFrom('licenses').select('period_start').where('company_id', '=', user.company_id).executeTakeFirstOrThrow();
    await db
      .insertInto('uploads')
      .values({ key: `uploads/${email}.mp4`, company_id: user.company_id, user_id: user.id, extension: 'mp4', submitted_at: before.period_start })
      .execute();
    const counts = '{ me { user { company { license { planName monthlyUploadedTours } } } } }';
    expect((await t.gql(counts, {}, token)).data.me.user.company.license).toEqual({ planName: FREE_TRIAL_PLAN_NAME, monthlyUploadedTours: 1 });
    await runAdminCommand(db, ['grant-offline-license', email]);
    expect((await t.gql(counts, {}, token)).data.me.user.company.license).toEqual({ planName: 'Offline License', monthlyUploadedTours: 1 });
    const after = await db.selectFrom('licenses').select('period_start').where('company_id', '=', user.company_id).executeTakeFirstOrThrow();
    expect(after.period_start.getTime()).toBe(before.period_start.getTime());
  });

  it('refuses unknown accounts and commands with a readable message', async () => {
    await expect(runAdminCommand(t.app.services.db, ['make-superadmin', 'nobody@example.com'])).rejects.toThrow(/No account with the email/);
    await expect(runAdminCommand(t.app.services.db, ['fly', 'a@b.c'])).rejects.toThrow(AdminCommandError);
    await expect(runAdminCommand(t.app.services.db, [])).rejects.toThrow(/Usage: npm run admin/);
  });
});

describe('npm run admin as a process', () => {
  it('works on the embedded database in DATA_DIR', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-admin-'));
    try {
      const email = uniqueEmail('cli');
      let database = await openDatabase({ dataDir: path.join(dataDir, 'pg') });
      const company = await database.db.insertInto('companies').values({ name: 'CLI Co' }).returning('id').executeTakeFirstOrThrow();
      await database.db.insertInto('users').values({ username: email, password_hash: null, company_id: company.id, activated_at: null, oidc_issuer: null, oidc_subject: null }).execute();
      await database.close();

      const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'admin', '--', 'make-superadmin', email], {
        cwd: repoRoot,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'development', LOG_LEVEL: 'silent' },
        timeout: 60_000,
      });
      expect(stdout).toContain(`${email} is now a super admin.`);

      database = await openDatabase({ dataDir: path.join(dataDir, 'pg') });
      const row = await database.db.selectFrom('users').select('is_superadmin').where('username', '=', email).executeTakeFirstOrThrow();
      await database.close();
      expect(row.is_superadmin).toBe(true);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
