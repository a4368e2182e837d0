/**
 * The personal data export: a run row per request with its progress (read by the Account page while it waits), made
 * by the export job (jobs/personal-data-jobs.ts) into a ZIP in storage, mailed as a signed link that expires after
 * DATA_EXPORT_LINK_HOURS; the sweep then removes the file. One export at a time per user, and a few a day
 * (RATE_LIMITS.dataExport).
 */
import { strToU8, zipSync } from 'fflate';
import { sql } from 'kysely';
import { ERROR_CODES } from '@roomwalk/shared';
import { consumeRateLimit } from '../../auth/rate-limit.js';
import type { AuthInfo } from '../../core/auth.js';
import { AppError } from '../../core/errors.js';
import type { DataExportRow } from '../../db/tables/personal-data.js';
import { EXPORT_ATTEMPTS, dataExportQueue } from '../../jobs/personal-data-jobs.js';
import { mailQueue } from '../../jobs/mail-job.js';
import type { Services } from '../services.js';
import { collectExport, exportManifest } from './export-contents.js';
import { exportReadyMail } from './personal-data-mail.js';
import { exportDownloadUrl } from './signing.js';
import { serverNow } from '../../core/clock.js';

const EXPORT_TEXTS = {
  running: 'Your export is already being made. It will be ready in a moment.',
  failed: 'Your export could not be made. Try again in a moment.',
} as const;

const exportKey = (userId: string, exportId: string) => `exports/${userId}/${exportId}.zip`;

/** dataExportCreate: queues an export of the caller's data (refused while one is queued or running). */
export async function requestExport(services: Services, auth: AuthInfo): Promise<DataExportRow> {
  // Keys use the whole API; an export is a person's, so only a signed-in person asks for one.
  if (auth.apiKeyId) throw new AppError(ERROR_CODES.FORBIDDEN, 'Only a signed-in person can export their data.');
  const running = await services.db
    .selectFrom('data_exports')
    .select('id')
    .where('user_id', '=', auth.userId)
    .where('status', 'in', ['QUEUED', 'RUNNING'])
    .executeTakeFirst();
  if (running) throw new AppError(ERROR_CODES.CONFLICT, EXPORT_TEXTS.running);
  await consumeRateLimit(services, 'dataExport', auth.userId);
  await dataExportQueue.create(services);
  return services.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('data_exports')
      .values({ user_id: auth.userId, file_key: null, error: null })
      .returningAll()
      .executeTakeFirstOrThrow();
    await dataExportQueue.enqueue(services, { exportId: row.id }, trx);
    return row;
  });
}

/** dataExport: the caller's newest export (null when they never asked for one). */
export async function latestExport(services: Services, auth: AuthInfo): Promise<DataExportRow | null> {
  const row = await services.db
    .selectFrom('data_exports')
    .selectAll()
    .where('user_id', '=', auth.userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/** The download link of a finished export whose file is still kept, else null. */
export function downloadUrlOf(services: Services, row: DataExportRow, now = serverNow(services)): string | null {
  if (row.status !== 'DONE' || !row.file_key || !row.expires_at || new Date(row.expires_at) <= now) return null;
  return exportDownloadUrl(services, row.id, new Date(row.expires_at));
}

/**
 * The job: collect, zip, store, mail, writing progress as it goes. A failure before the last attempt leaves the run
 * RUNNING and throws, so the queue tries again; the last attempt marks it FAILED with the text the console shows.
 */
export async function runExport(services: Services, exportId: string, now = () => serverNow(services)): Promise<void> {
  const db = services.db;
  const run = await db
    .updateTable('data_exports')
    .set({ status: 'RUNNING', attempt: sql`attempt + 1`, progress: 5, progress_text: 'Starting' })
    .where('id', '=', exportId)
    .where('status', 'in', ['QUEUED', 'RUNNING'])
    .returningAll()
    .executeTakeFirst();
  if (!run) return;
  const progress = async (p: number, text: string) => {
    await db.updateTable('data_exports').set({ progress: p, progress_text: text }).where('id', '=', exportId).execute();
  };
  const key = exportKey(run.user_id, run.id);
  try {
    const user = await db
      .selectFrom('users')
      .leftJoin('user_profiles', 'user_profiles.user_id', 'users.id')
      .select(['users.username', 'user_profiles.name'])
      .where('users.id', '=', run.user_id)
      .executeTakeFirstOrThrow();
    const files = await collectExport(services, run.user_id, progress);
    await progress(85, 'Packing the ZIP file');
    const at = now();
    const entries: Record<string, Uint8Array> = {
      'manifest.json': strToU8(JSON.stringify(exportManifest(run.user_id, user.username, files, at), null, 2)),
    };
    for (const f of files) entries[f.name] = strToU8(JSON.stringify(f.content, null, 2));
    const zip = Buffer.from(zipSync(entries, { level: 6, mtime: at }));
    await progress(92, 'Storing the file');
    const { size } = await services.storage.put(key, zip, 'application/zip');
    const expiresAt = new Date(at.getTime() + services.config.DATA_EXPORT_LINK_HOURS * 3600_000);
    await db
      .updateTable('data_exports')
      .set({
        status: 'DONE',
        progress: 100,
        progress_text: 'Ready',
        file_key: key,
        size,
        expires_at: expiresAt,
        finished_at: new Date(),
      })
      .where('id', '=', exportId)
      .execute();
    await mailQueue.enqueue(
      services,
      exportReadyMail({
        to: user.username,
        name: user.name ?? 'there',
        link: exportDownloadUrl(services, run.id, expiresAt),
        expiresAt,
      }),
    );
  } catch (err) {
    const finalAttempt = run.attempt >= EXPORT_ATTEMPTS;
    services.log.error({ err, exportId, finalAttempt }, 'data export failed');
    await services.storage.delete(key).catch(() => undefined);
    if (!finalAttempt) throw err;
    await db
      .updateTable('data_exports')
      .set({
        status: 'FAILED',
        progress_text: 'Failed',
        error: EXPORT_TEXTS.failed,
        file_key: null,
        finished_at: new Date(),
      })
      .where('id', '=', exportId)
      .execute();
  }
}

/** The export a download link names, when its file is still kept ('expired' once the link's time has passed). */
export async function exportForDownload(
  services: Services,
  exportId: string,
  now = serverNow(services),
): Promise<{ key: string; createdAt: Date } | 'expired' | null> {
  const row = await services.db
    .selectFrom('data_exports')
    .select(['file_key', 'expires_at', 'created_at'])
    .where('id', '=', exportId)
    .executeTakeFirst();
  if (!row) return null;
  if (!row.file_key || !row.expires_at || new Date(row.expires_at) <= now) return 'expired';
  return { key: row.file_key, createdAt: new Date(row.created_at) };
}

/** Removes the files of exports whose link expired (the row stays, without its file); answers how many. */
export async function sweepExpiredExports(services: Services, now = serverNow(services)): Promise<number> {
  const due = await services.db
    .selectFrom('data_exports')
    .select(['id', 'file_key'])
    .where('file_key', 'is not', null)
    .where('expires_at', '<=', now)
    .limit(500)
    .execute();
  for (const row of due) {
    await services.storage.delete(row.file_key!);
    await services.db.updateTable('data_exports').set({ file_key: null }).where('id', '=', row.id).execute();
  }
  return due.length;
}
