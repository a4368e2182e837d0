/** Test fixtures written straight to the database: a company, its licence and a signed-in user. */
import { randomBytes } from 'node:crypto';
import { planById, uploadLimitFor, type PlanId } from '@roomwalk/shared';
import type { App } from '../../src/app.js';
import { getLicense, rolesFor } from '../../src/services/licenses.js';
import type { CompanyRow, UserRow } from '../../src/db/types.js';
import { serverNow } from '../../src/core/clock.js';

export interface SeededUser {
  user: UserRow;
  company: CompanyRow;
  token: string;
  /** Global ids as the API shows them. */
  userId: string;
  companyId: string;
}

export interface SeedOptions {
  email?: string;
  plan?: PlanId | null;
  role?: 'ADMIN' | 'USER';
  superadmin?: boolean;
  /** Join this company instead of creating one. */
  companyId?: string;
  name?: string;
  surname?: string;
  activated?: boolean;
}

export async function seedUser(app: App, opts: SeedOptions = {}): Promise<SeededUser> {
  const db = app.services.db;
  const email = opts.email ?? `user-${randomBytes(4).toString('hex')}@example.com`;
  const company = opts.companyId
    ? await db.selectFrom('companies').selectAll().where('id', '=', opts.companyId).executeTakeFirstOrThrow()
    : await db
        .insertInto('companies')
        .values({ name: `Company ${email.split('@')[0]}` })
        .returningAll()
        .executeTakeFirstOrThrow();
  const user = await db
    .insertInto('users')
    .values({
      username: email,
      password_hash: null,
      company_id: company.id,
      role: opts.role ?? (opts.companyId ? 'USER' : 'ADMIN'),
      is_superadmin: opts.superadmin ?? false,
      activated_at: opts.activated === false ? null : new Date(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await db
    .insertInto('user_profiles')
    .values({
      user_id: user.id,
      name: opts.name ?? 'Test',
      surname: opts.surname ?? 'User',
      contact_number: '+27 821234567',
    })
    .execute();
  const planId = opts.plan === undefined ? 'free' : opts.plan;
  if (planId && !opts.companyId) {
    const plan = planById(planId)!;
    const now = new Date();
    await db
      .insertInto('licenses')
      .values({
        company_id: company.id,
        plan_id: plan.id,
        plan_name: plan.planName,
        quantity: plan.upTo,
        upload_limit: uploadLimitFor(plan.upTo),
        start_date: now,
        period_start: now,
        end_date: null,
        subscription_id: null,
      })
      .execute();
  }
  const license = await getLicense(db, company.id);
  const token = await app.services.tokens.sign({
    userId: user.id,
    companyId: company.id,
    roles: rolesFor(user, license, serverNow(app.services)),
  });
  return { user, company, token, userId: `user_${user.id}`, companyId: `company_${company.id}` };
}
