/**
 * The seller report PDF is made in the job queue (pg-boss): a run row per request with its progress, read by the
 * console while it waits. A DOWNLOAD run keeps its PDF for the agent (cleared after a day); a DIGEST run mails it to
 * the digest's recipients and keeps nothing. The sweep (every 15 minutes) starts a DIGEST run for each digest whose
 * time has come and moves its next sending time on in the same transaction, so two workers never send one twice.
 */
import { sql } from 'kysely';
import type { AuthInfo } from '../../core/auth.js';
import { notFound } from '../../core/errors.js';
import { decodeTypedId, encodeId, encodeTypedId } from '../../core/ids.js';
import { slug } from '../reports/report-table.js';
import type { Services } from '../services.js';
import { hasAnalyticsPlan, sellerReportTour } from './access.js';
import { audienceLinkOfTour } from '../audience-links/audience-links.js';
import { digestMail } from './digest-mail.js';
import { readSellerFigures, readSubject } from './figures-source.js';
import { validatePeriod } from './links.js';
import { DIGEST_DAYS, nextSendAt } from './schedule.js';
import { sellerReportToPdf } from './seller-pdf.js';
import type { SellerRunRow } from '../../db/tables/seller-reports.js';
import { SELLER_RUN_ATTEMPTS, sellerReportQueue } from '../../jobs/seller-report-jobs.js';
import { serverNow } from '../../core/clock.js';
import { utcDay } from '../../core/days.js';

const RUN_FAILED_TEXT = 'The report could not be made. Try again in a moment.';
const KEEP_PDF_MS = 24 * 60 * 60 * 1000;

export const encodeRunId = (id: string) => encodeTypedId('SellerReportRun', id);
const decodeRunId = (globalId: string) => decodeTypedId('SellerReportRun', globalId, 'This report was not found.');

const enqueue = (services: Services, runId: string, audienceLinkId: string | null = null) =>
  sellerReportQueue.enqueue(services, { runId, ...(audienceLinkId ? { audienceLinkId } : {}) });

/**
 * sellerReportPdfCreate: queues a PDF of the last `days` days for the agent to download; with `audienceLinkId` (the
 * report filtered by an audience link, as the shared report and Tour Analytics can be), of that link's visits only.
 */
export async function startDownload(
  services: Services,
  auth: AuthInfo,
  input: { tourId: string; days?: number | null; audienceLinkId?: string | null },
): Promise<SellerRunRow> {
  const tour = await sellerReportTour(services, auth, input.tourId);
  const days = validatePeriod(input.days);
  const linkId = input.audienceLinkId ? await audienceLinkOfTour(services, tour.id, input.audienceLinkId) : null;
  const run = await services.db
    .insertInto('seller_report_runs')
    // created_at by the server's clock: the download is kept a day by it (sweepDueDigests).
    .values({ tour_id: tour.id, requested_by: auth.userId, kind: 'DOWNLOAD', days, created_at: serverNow(services) })
    .returningAll()
    .executeTakeFirstOrThrow();
  await enqueue(services, run.id, linkId);
  return run;
}

/** sellerReportRun: a run the caller may see (any run of a tour they may manage). */
export async function getRun(services: Services, auth: AuthInfo, runGlobalId: string): Promise<SellerRunRow> {
  const row = await services.db
    .selectFrom('seller_report_runs')
    .selectAll()
    .where('id', '=', decodeRunId(runGlobalId))
    .executeTakeFirst();
  if (!row) throw notFound('This report was not found.');
  await sellerReportTour(services, auth, encodeId('Tour', row.tour_id)).catch(() => {
    throw notFound('This report was not found.');
  });
  return row;
}

/**
 * The newest run of a digest (its sending, with progress or the reason it failed); the caller read the digest already.
 */
export async function lastDigestRun(services: Services, digestId: string): Promise<SellerRunRow | null> {
  const row = await services.db
    .selectFrom('seller_report_runs')
    .selectAll()
    .where('digest_id', '=', digestId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/** Starts the runs of every digest that is due; answers how many. */
export async function sweepDueDigests(services: Services, now = serverNow(services)): Promise<number> {
  const runIds = await services.db.transaction().execute(async (trx) => {
    const db = trx;
    const due = await db
      .selectFrom('seller_report_digests as d')
      .innerJoin('tours as t', 't.id', 'd.tour_id')
      .select(['d.id', 'd.tour_id', 'd.company_id', 'd.frequency', 'd.day', 'd.time_zone'])
      .where('d.next_send_at', '<=', now)
      .where('t.deleted_at', 'is', null)
      .forUpdate('d')
      .skipLocked()
      .limit(200)
      .execute();
    const ids: string[] = [];
    for (const d of due) {
      await db
        .updateTable('seller_report_digests')
        .set({ next_send_at: nextSendAt(d.frequency, d.day, now, d.time_zone) })
        .where('id', '=', d.id)
        .execute();
      // Below Basic the digest waits (kept, sent again after an upgrade) instead of mailing figures the plan lacks.
      if (!(await hasAnalyticsPlan(trx, d.company_id, now))) continue;
      const run = await db
        .insertInto('seller_report_runs')
        .values({
          tour_id: d.tour_id,
          digest_id: d.id,
          kind: 'DIGEST',
          days: DIGEST_DAYS[d.frequency],
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(run.id);
    }
    return ids;
  });
  for (const id of runIds) await enqueue(services, id);
  // Downloads are kept for a day.
  await services.db
    .updateTable('seller_report_runs')
    .set({ pdf: null })
    .where('pdf', 'is not', null)
    .where('created_at', '<', new Date(now.getTime() - KEEP_PDF_MS))
    .execute();
  return runIds.length;
}

/**
 * The job: figures, PDF, then keep it (download) or mail it (digest), writing progress as it goes. A failure before
 * the last attempt leaves the run RUNNING and throws, so pg-boss tries again (an SMTP server that was down); the
 * last attempt marks it FAILED with a message the console shows.
 */
export async function runSellerReport(
  services: Services,
  runId: string,
  now = serverNow(services),
  /** Only the visits through this audience link (a download from a filtered report; digests are whole-tour). */
  audienceLinkId: string | null = null,
): Promise<void> {
  const db = services.db;
  const run = await db
    .updateTable('seller_report_runs')
    .set({ status: 'RUNNING', attempt: sql`attempt + 1`, progress: 5, progress_text: 'Reading the figures' })
    .where('id', '=', runId)
    .where('status', 'in', ['QUEUED', 'RUNNING'])
    .returningAll()
    .executeTakeFirst();
  if (!run) return;
  const finalAttempt = run.attempt >= SELLER_RUN_ATTEMPTS;
  const progress = (p: number, text: string) =>
    db.updateTable('seller_report_runs').set({ progress: p, progress_text: text }).where('id', '=', runId).execute();
  try {
    const linkId = run.kind === 'DOWNLOAD' ? audienceLinkId : null;
    const { figures, from, to } = await readSellerFigures(services, run.tour_id, run.days, now, linkId);
    const subject = await readSubject(services, run.tour_id, { from, to }, linkId);
    await progress(40, 'Drawing the PDF');
    const pdf = await sellerReportToPdf(subject, figures, now);
    const named = [subject.tourTitle || 'tour', ...(subject.audienceLinkLabel ? [subject.audienceLinkLabel] : [])];
    const fileName = `seller-report-${slug(named.join(' '))}-${utcDay(now)}.pdf`;
    if (run.kind === 'DOWNLOAD') {
      await db
        .updateTable('seller_report_runs')
        .set({
          status: 'DONE',
          progress: 100,
          progress_text: 'Ready',
          pdf,
          file_name: fileName,
          finished_at: new Date(),
        })
        .where('id', '=', runId)
        .execute();
      return;
    }
    const digest = run.digest_id
      ? await db.selectFrom('seller_report_digests').selectAll().where('id', '=', run.digest_id).executeTakeFirst()
      : undefined;
    if (!digest) {
      await db
        .updateTable('seller_report_runs')
        .set({ status: 'FAILED', error: 'The digest was removed before it was sent.', finished_at: new Date() })
        .where('id', '=', runId)
        .execute();
      return;
    }
    await progress(70, 'Sending the e-mail');
    // One mail per recipient: recipients never see each other's addresses. A retried run skips those already sent to.
    const sent = new Set(run.sent_to);
    for (const to of digest.recipients) {
      if (sent.has(to)) continue;
      await services.mailer.send(digestMail({ to, subject, figures, pdf, fileName }));
      await db
        .updateTable('seller_report_runs')
        .set({ sent_to: sql<string[]>`array_append(sent_to, ${to}::text)` })
        .where('id', '=', runId)
        .execute();
    }
    await db
      .updateTable('seller_report_digests')
      .set({ last_sent_at: new Date() })
      .where('id', '=', digest.id)
      .execute();
    await db
      .updateTable('seller_report_runs')
      .set({ status: 'DONE', progress: 100, progress_text: 'Sent', file_name: fileName, finished_at: new Date() })
      .where('id', '=', runId)
      .execute();
  } catch (err) {
    services.log.error({ err, runId, finalAttempt }, 'seller report failed');
    if (!finalAttempt) throw err;
    await db
      .updateTable('seller_report_runs')
      .set({ status: 'FAILED', progress_text: 'Failed', error: RUN_FAILED_TEXT, finished_at: new Date() })
      .where('id', '=', runId)
      .execute();
  }
}
