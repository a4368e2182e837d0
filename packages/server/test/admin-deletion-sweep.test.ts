/**
 * The operator's account commands (npm run admin): `show-account` says what the product holds for an address and
 * when it will be deleted; `run-deletion-sweep` runs the 15-minute sweep at once in the running server, deleting only
 * the accounts whose grace period has ended by the server's clock, and is refused where no server runs it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffset } from '../src/core/clock.js';
import { ADMIN_COMMAND_TEXTS, runAdminCommand } from '../src/services/admin-commands.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { login, signUpActivated, uniqueEmail } from './helpers/accounts.js';

const REQUEST = 'mutation($p: String) { accountDeletionRequest(password: $p) { status } }';

describe.each(DB_KINDS)('account admin commands on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_DISABLED: true });
  });
  afterEach(() => setClockOffset(t.app.services, 0));
  afterAll(async () => {
    await t?.stop();
  });

  it('shows the account, deletes it only once its grace period has ended, then finds nothing', async () => {
    const { services } = t.app;
    const email = uniqueEmail('sweep');
    await signUpActivated(t, { username: email });
    expect(await runAdminCommand(services.db, ['show-account', email], services)).toMatch(
      /account [0-9a-f-]{36}, admin of .*\nTours owned: 0 \(0 clips, 0 markers\); data exports: 0\.\nNo deletion asked\./,
    );
    const { body } = await login(t, email);
    const asked = await t.gql(REQUEST, { p: 'Secret123' }, body.access_token);
    expect(asked.data.accountDeletionRequest.status).toBe('SCHEDULED');
    expect(await runAdminCommand(services.db, ['show-account', email], services)).toMatch(/Deletion scheduled/);

    // Not yet: the sweep deletes nothing.
    expect(await runAdminCommand(services.db, ['run-deletion-sweep'], services)).toMatch(/^Deleted 0 accounts/);
    expect(await runAdminCommand(services.db, ['show-account', email], services)).toMatch(/Deletion scheduled/);

    setClockOffset(services, 31 * 86_400_000);
    expect(await runAdminCommand(services.db, ['run-deletion-sweep'], services)).toMatch(
      /^Deleted 1 account whose grace period had ended/,
    );
    await expect(runAdminCommand(services.db, ['show-account', email], services)).rejects.toThrow(
      `No account with the email ${email}.`,
    );
  });

  it('refuses the sweep where no server runs it, and extra arguments', async () => {
    const { db } = t.app.services;
    await expect(runAdminCommand(db, ['run-deletion-sweep'])).rejects.toThrow(ADMIN_COMMAND_TEXTS.sweepNeedsServer);
    await expect(runAdminCommand(db, ['run-deletion-sweep', 'a@b.c'], t.app.services)).rejects.toThrow(
      /Usage: npm run admin/,
    );
  });
});
