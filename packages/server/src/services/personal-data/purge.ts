/**
 * Deleting an account whose grace period ended (the sweep, every 15 minutes). A member leaving a company that keeps
 * others: their tours, with their leads and analytics, pass to the company's oldest admin (the company's work stays
 * with the company), and the person goes: account, profile, picture, sign-in tokens, export files, unsent uploads,
 * feedback and the invite that held their address. The last member: the company goes with everything in it (tours,
 * clips, pictures, reels, photos, uploads, leads, visits and their daily counts, reports, keys, webhooks, billing
 * rows). Rows go in one transaction; files after it commits, so a failed transaction leaves the files a kept row names.
 */
import { sql } from 'kysely';
import { mailQueue } from '../../jobs/mail-job.js';
import type { Services } from '../services.js';
import { sweepExpiredExports } from './exports.js';
import { deletionDoneMail } from './personal-data-mail.js';
import { serverNow } from '../../core/clock.js';

interface Files {
  prefixes: string[];
  keys: string[];
  uploads: Array<{ key: string; multipartId: string | null }>;
}

/**
 * Removes the files after the rows are gone. Each removal stands alone: one the store refuses is logged with its key
 * (to remove by hand) and the others still go.
 */
async function removeFiles(services: Services, f: Files): Promise<void> {
  const { storage } = services;
  const attempt = async (what: string, run: () => Promise<void>) => {
    await run().catch((err: unknown) =>
      services.log.error({ err, file: what }, "could not remove a deleted account's file"),
    );
  };
  for (const p of f.prefixes) await attempt(p, () => storage.deletePrefix(p));
  for (const k of f.keys) await attempt(k, () => storage.delete(k));
  for (const u of f.uploads) {
    if (u.multipartId) await attempt(u.key, () => storage.abortMultipart(u.key, u.multipartId!));
    await attempt(u.key, () => storage.deleteUpload(u.key));
  }
}

export interface PurgeResult {
  companyToo: boolean;
}

/** Deletes the account now (the sweep calls it once its grace period ended); null when it is no longer scheduled. */
export async function purgeAccount(
  services: Services,
  userId: string,
  now = serverNow(services),
): Promise<PurgeResult | null> {
  const outcome = await services.db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('account_deletions')
      .select('company_id')
      .where('user_id', '=', userId)
      .where('purge_after', '<=', now)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!due) return null;
    const user = await trx
      .selectFrom('users')
      .leftJoin('user_profiles', 'user_profiles.user_id', 'users.id')
      .innerJoin('companies', 'companies.id', 'users.company_id')
      .select([
        'users.id',
        'users.username',
        'users.company_id',
        'user_profiles.name',
        'companies.name as company_name',
        'companies.logo_key',
      ])
      .where('users.id', '=', userId)
      .executeTakeFirstOrThrow();
    const members = await trx
      .selectFrom('users')
      .select(['id', 'role'])
      .where('company_id', '=', user.company_id)
      .orderBy('created_at')
      .orderBy('id')
      .forUpdate()
      .execute();
    const others = members.filter((m) => m.id !== userId);
    const files: Files = { prefixes: [`profiles/${userId}/`, `exports/${userId}/`], keys: [], uploads: [] };
    // Feedback keeps the name and address typed into it; the invite that brought the person in keeps their address.
    await trx.deleteFrom('feedback').where('user_id', '=', userId).execute();
    await trx.deleteFrom('team_invites').where(sql<string>`lower(email)`, '=', user.username.toLowerCase()).execute();
    if (others.length === 0) {
      const tours = await trx
        .selectFrom('tours')
        .select(['id', 'video_key'])
        .where('company_id', '=', user.company_id)
        .execute();
      const uploads = await trx
        .selectFrom('uploads')
        .select(['key', 'multipart_id'])
        .where('company_id', '=', user.company_id)
        .execute();
      files.prefixes.push(...tours.map((t) => `tours/${t.id}/`), `companies/${user.company_id}/`);
      files.keys.push(...tours.flatMap((t) => (t.video_key ? [t.video_key] : [])));
      files.uploads.push(...uploads.map((u) => ({ key: u.key, multipartId: u.multipart_id })));
      // Everything of the company cascades from its row: users, tours and every row hanging from them.
      await trx.deleteFrom('companies').where('id', '=', user.company_id).execute();
      return { companyToo: true, user, files };
    }
    let heir = others.find((m) => m.role === 'ADMIN');
    if (!heir) {
      // Possible only when the admins left one after another while the rest waited out their own grace period.
      heir = others[0]!;
      await trx.updateTable('users').set({ role: 'ADMIN' }).where('id', '=', heir.id).execute();
    }
    await trx.updateTable('tours').set({ owner_id: heir.id }).where('owner_id', '=', userId).execute();
    await trx
      .updateTable('uploads')
      .set({ user_id: heir.id })
      .where('user_id', '=', userId)
      .where('tour_id', 'is not', null)
      .execute();
    const unsent = await trx
      .deleteFrom('uploads')
      .where('user_id', '=', userId)
      .returning(['key', 'multipart_id'])
      .execute();
    files.uploads.push(...unsent.map((u) => ({ key: u.key, multipartId: u.multipart_id })));
    await trx.deleteFrom('users').where('id', '=', userId).execute();
    return { companyToo: false, user, files };
  });
  if (!outcome) return null;
  await removeFiles(services, outcome.files);
  const { user, companyToo } = outcome;
  await mailQueue.enqueue(
    services,
    deletionDoneMail({ to: user.username, name: user.name ?? 'there', companyToo, companyName: user.company_name }),
  );
  services.log.info({ userId, companyToo }, 'account deleted');
  return { companyToo };
}

/** The sweep: deletes every account whose grace period ended, then the export files whose link expired. */
export async function sweepPersonalData(
  services: Services,
  now = serverNow(services),
): Promise<{ accounts: number; exports: number }> {
  const due = await services.db
    .selectFrom('account_deletions')
    .select('user_id')
    .where('purge_after', '<=', now)
    .orderBy('purge_after')
    .limit(100)
    .execute();
  let accounts = 0;
  for (const { user_id } of due) {
    try {
      if (await purgeAccount(services, user_id, now)) accounts++;
    } catch (err) {
      // One account that cannot be deleted now (storage down) must not hold up the others; the next sweep tries again.
      services.log.error({ err, userId: user_id }, 'account deletion failed');
    }
  }
  return { accounts, exports: await sweepExpiredExports(services, now) };
}
