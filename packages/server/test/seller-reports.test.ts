/**
 * Seller reports against the real app (PGlite) and a real SMTP server: shareable links (hashed, expiring, revocable,
 * readable without login), the digest's validation and schedule, the sweep starting a due digest whose PDF reaches
 * every recipient as an attachment, and the download run made in the job queue with its progress.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { startSmtpInbox, type SmtpInbox } from './helpers/smtp.js';
import { insertTours } from './billing-helpers.js';
import { recordVisit } from './fixtures/visits.js';
import { encodeId } from '../src/core/ids.js';
import { sweepDueDigests } from '../src/services/seller-reports/runs.js';

const LINK_CREATE =
  'mutation($input: SellerReportLinkCreateInput!) { sellerReportLinkCreate(input: $input) { url link { id prefix days expiresAt } } }';
const SHARED =
  'query($token: String!) { sharedSellerReport(token: $token) { tourTitle agentName days analytics { visits uniqueVisitors rooms { name seconds visits } exits { name visits } } } }';
const SETTINGS =
  'query($id: ID!) { sellerReport(tourId: $id) { links { id prefix } digest { frequency day recipients nextSendAt lastSentAt lastRun { status progress progressText } } } }';
const DIGEST_SAVE =
  'mutation($input: SellerReportDigestInput!) { sellerReportDigestSave(input: $input) { frequency day recipients timeZone nextSendAt } }';
const PDF_CREATE = 'mutation($input: SellerReportPdfInput!) { sellerReportPdfCreate(input: $input) { id status } }';
const RUN =
  'query($id: ID!) { sellerReportRun(id: $id) { status progress progressText fileName mimeType fileContent error } }';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'seller-reports-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
let files = 0;
const pdfText = (pdf: Buffer, name: string) => {
  const file = path.join(work, `${name}-${++files}.pdf`);
  fs.writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
};

/** The base64 body of the message's application/pdf part, decoded. */
function pdfAttachment(raw: string): { name: string; pdf: Buffer } | null {
  const m =
    /Content-Type: application\/pdf;?[^\r\n]*(?:\r?\n[ \t][^\r\n]*)*\r?\n((?:[A-Za-z-]+:[^\r\n]*(?:\r?\n[ \t][^\r\n]*)*\r?\n)*)\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(
      raw,
    );
  if (!m) return null;
  const name = /filename="?([^";\r\n]+)"?/.exec(m[0])?.[1] ?? '';
  return { name, pdf: Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64') };
}

describe.each(DB_KINDS)('seller reports on %s', (kind) => {
  let smtp: SmtpInbox;
  let t: TestApp;
  let pro: SeededUser;
  let tourUuid: string;
  let tourId: string;

  beforeAll(async () => {
    smtp = await startSmtpInbox();
    t = await startTestApp(kind, {
      RATE_LIMIT_DISABLED: true,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Roomwalk <no-reply@roomwalk.test>',
    });
    pro = await seedUser(t.app, { plan: 'pro', name: 'Thandi', surname: 'Nkosi' });
    [tourUuid] = (await insertTours(t.app, { companyId: pro.company.id, userId: pro.user.id }, 1, {
      title: () => 'Garden Cottage',
      rooms: ['Kitchen', 'Master Bedroom'],
    })) as [string];
    tourId = encodeId('Tour', tourUuid);
    // Two visitors walk the tour differently: one lingers in the Kitchen and leaves from there, one goes to the end.
    await recordVisit(t.app.services, {
      tourId,
      visitorId: 'visitor-one-aaaa',
      secondsSpent: 100,
      roomsReached: 2,
      segments: [
        { room: '', seconds: 10 },
        { room: 'Kitchen', seconds: 90 },
      ],
      reachedEnd: false,
      device: 'phone',
    });
    await recordVisit(t.app.services, {
      tourId,
      visitorId: 'visitor-two-bbbb',
      secondsSpent: 75,
      roomsReached: 3,
      segments: [
        { room: '', seconds: 5 },
        { room: 'Kitchen', seconds: 20 },
        { room: 'Master Bedroom', seconds: 50 },
      ],
      reachedEnd: true,
      device: 'desktop',
    });
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.close();
  });

  it('refuses plans without Tour Analytics with PLAN_REQUIRED, and other companies with NOT_FOUND', async () => {
    const free = await seedUser(t.app, { plan: 'free' });
    const [freeTour] = await insertTours(t.app, { companyId: free.company.id, userId: free.user.id }, 1);
    const r = await t.gql(SETTINGS, { id: encodeId('Tour', freeTour!) }, free.token);
    expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.PLAN_REQUIRED);
    const other = await seedUser(t.app, { plan: 'pro' });
    const o = await t.gql(LINK_CREATE, { input: { tourId } }, other.token);
    expect(o.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);
    expect(await t.app.services.db.selectFrom('seller_report_links').select('id').execute()).toHaveLength(0);
  });

  it('shares a read-only link that works without login, stores only its hash, and stops when revoked or expired', async () => {
    const created = await t.gql(LINK_CREATE, { input: { tourId, days: 7, expiresInDays: 14 } }, pro.token);
    expect(created.errors).toBeUndefined();
    const { url, link } = created.data.sellerReportLinkCreate;
    expect(url).toMatch(new RegExp(`^${t.url}/seller-report/rws_[A-Za-z0-9_-]{32}$`));
    const token = url.split('/').pop()!;
    expect(link.prefix).toBe(token.slice(0, 10));
    expect(link.days).toBe(7);
    const row = await t.app.services.db.selectFrom('seller_report_links').selectAll().executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token);

    const shared = await t.gql(SHARED, { token });
    expect(shared.errors).toBeUndefined();
    const report = shared.data.sharedSellerReport;
    expect(report).toMatchObject({ tourTitle: 'Garden Cottage', agentName: 'Thandi Nkosi', days: 7 });
    expect(report.analytics.visits).toBe(2);
    expect(report.analytics.uniqueVisitors).toBe(2);
    expect(report.analytics.rooms).toEqual(
      expect.arrayContaining([
        { name: 'Kitchen', seconds: 110, visits: 2 },
        { name: 'Master Bedroom', seconds: 50, visits: 1 },
      ]),
    );
    expect(report.analytics.exits).toEqual(
      expect.arrayContaining([
        { name: 'Kitchen', visits: 1 },
        { name: 'Master Bedroom', visits: 1 },
      ]),
    );
    expect((await t.gql(SETTINGS, { id: tourId }, pro.token)).data.sellerReport.links).toHaveLength(1);

    const bad = await t.gql(SHARED, { token: `${token.slice(0, -2)}xx` });
    expect(bad.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);

    const revoke = await t.gql(
      'mutation($id: ID!) { sellerReportLinkRevoke(id: $id) { id } }',
      { id: link.id },
      pro.token,
    );
    expect(revoke.errors).toBeUndefined();
    const gone = await t.gql(SHARED, { token });
    expect(gone.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);
    expect(gone.errors?.[0]?.message).toBe('This report link is not valid any more. Ask the agent for a new one.');

    const second = (await t.gql(LINK_CREATE, { input: { tourId } }, pro.token)).data.sellerReportLinkCreate;
    const token2 = second.url.split('/').pop()!;
    expect((await t.gql(SHARED, { token: token2 })).errors).toBeUndefined();
    await t.app.services.db
      .updateTable('seller_report_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    expect((await t.gql(SHARED, { token: token2 })).errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);
    expect((await t.gql(SETTINGS, { id: tourId }, pro.token)).data.sellerReport.links).toHaveLength(0);

    const tooLong = await t.gql(LINK_CREATE, { input: { tourId, expiresInDays: 365 } }, pro.token);
    expect(tooLong.errors?.[0]?.message).toBe('A link can stay valid for 1 to 90 days.');
  });

  it('validates the digest in the user words and writes nothing on bad input', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { frequency: 'WEEKLY', day: 1, recipients: ['seller@example.com', 'not an address'] },
        '"not an address" is not an e-mail address.',
      ],
      [{ frequency: 'WEEKLY', day: 1, recipients: [' '] }, 'Enter at least one e-mail address to send the report to.'],
      [{ frequency: 'WEEKLY', day: 8, recipients: ['seller@example.com'] }, 'Choose a day of the week.'],
      [
        { frequency: 'MONTHLY', day: 31, recipients: ['seller@example.com'] },
        'Choose a day of the month from 1 to 28.',
      ],
      [
        { frequency: 'MONTHLY', day: 3, recipients: Array.from({ length: 11 }, (_v, i) => `s${i}@example.com`) },
        'A report can go to at most 10 addresses.',
      ],
      [
        { frequency: 'WEEKLY', day: 1, recipients: ['seller@example.com'], timeZone: 'Mars/Olympus_Mons' },
        '"Mars/Olympus_Mons" is not a time zone. Use a name such as Africa/Johannesburg.',
      ],
    ];
    for (const [input, message] of cases) {
      const r = await t.gql(DIGEST_SAVE, { input: { tourId, ...input } }, pro.token);
      expect(r.errors?.[0]?.message).toBe(message);
      expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.BAD_USER_INPUT);
    }
    expect(await t.app.services.db.selectFrom('seller_report_digests').select('id').execute()).toHaveLength(0);
  });

  it('sends a due digest to every recipient with the seller report PDF attached, and schedules the next one', async () => {
    const saved = await t.gql(
      DIGEST_SAVE,
      {
        input: {
          tourId,
          frequency: 'WEEKLY',
          day: 5,
          recipients: ['seller@example.com', ' Co-Seller@example.com ', 'seller@example.com'],
          timeZone: 'Africa/Johannesburg',
        },
      },
      pro.token,
    );
    expect(saved.errors).toBeUndefined();
    expect(saved.data.sellerReportDigestSave.recipients).toEqual(['seller@example.com', 'Co-Seller@example.com']);
    expect(saved.data.sellerReportDigestSave.timeZone).toBe('Africa/Johannesburg');
    // Friday 07:00 in Johannesburg (UTC+2) is Friday 05:00 UTC.
    const next = new Date(saved.data.sellerReportDigestSave.nextSendAt);
    expect(next.getUTCDay()).toBe(5);
    expect(next.getUTCHours()).toBe(5);
    expect(next.getTime()).toBeGreaterThan(Date.now());

    // Not due yet: the sweep starts nothing.
    expect(await sweepDueDigests(t.app.services)).toBe(0);
    const due = new Date(next.getTime() + 60_000);
    expect(await sweepDueDigests(t.app.services, due)).toBe(1);
    // Its time has moved on a week, so a second sweep at the same moment sends nothing more.
    expect(await sweepDueDigests(t.app.services, due)).toBe(0);
    const digest = await t.app.services.db.selectFrom('seller_report_digests').selectAll().executeTakeFirstOrThrow();
    expect(digest.next_send_at.getTime() - next.getTime()).toBe(7 * 86_400_000);

    const mails = await vi.waitFor(
      () => {
        const got = smtp.inbox.filter((m) =>
          /Subject: (=\?UTF-8\?Q\?)?Seller.report.for.(=22|")Garden.Cottage/.test(m.raw),
        );
        if (got.length < 2)
          throw new Error(
            `digest mails not there yet: ${smtp.inbox.map((m) => /Subject:.*/.exec(m.raw)?.[0]).join(' | ')}`,
          );
        return got;
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(mails.flatMap((m) => m.to).sort()).toEqual(['Co-Seller@example.com', 'seller@example.com']);
    for (const m of mails) {
      const att = pdfAttachment(m.raw);
      expect(att, 'a PDF attachment').not.toBeNull();
      expect(att!.name).toMatch(/^seller-report-garden-cottage-\d{4}-\d{2}-\d{2}\.pdf$/);
      const text = pdfText(att!.pdf, 'digest');
      expect(text).toContain('Garden Cottage');
      expect(text).toContain('Kitchen');
      expect(text).toContain('Master Bedroom');
    }
    const settings = await t.gql(SETTINGS, { id: tourId }, pro.token);
    expect(settings.data.sellerReport.digest.lastSentAt).not.toBeNull();
    expect(settings.data.sellerReport.digest.lastRun).toEqual({ status: 'DONE', progress: 100, progressText: 'Sent' });
  });

  it('makes the download PDF in the job queue, with progress, for the agent only', async () => {
    const started = await t.gql(PDF_CREATE, { input: { tourId, days: 30 } }, pro.token);
    expect(started.errors).toBeUndefined();
    const runId = started.data.sellerReportPdfCreate.id;
    const stranger = await seedUser(t.app, { plan: 'pro' });
    expect((await t.gql(RUN, { id: runId }, stranger.token)).errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);
    const done = await vi.waitFor(
      async () => {
        const r = (await t.gql(RUN, { id: runId }, pro.token)).data.sellerReportRun;
        if (r.status !== 'DONE') throw new Error(`run ${r.status} ${r.progress}`);
        return r;
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(done).toMatchObject({ progress: 100, progressText: 'Ready', mimeType: 'application/pdf', error: null });
    const pdf = Buffer.from(done.fileContent, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf, 'download');
    expect(text).toContain('Seller report');
    expect(text).toMatch(/Kitchen\s+1 min 50 s in all, 2 visits/);
  });
  it('stops sharing figures and sending digests when the plan loses Tour Analytics, and starts again after an upgrade', async () => {
    const db = t.app.services.db;
    const token = (await t.gql(LINK_CREATE, { input: { tourId } }, pro.token)).data.sellerReportLinkCreate.url
      .split('/')
      .pop()!;
    const digest = await db.selectFrom('seller_report_digests').selectAll().executeTakeFirstOrThrow();
    const due = new Date(digest.next_send_at.getTime() + 60_000);
    await db.updateTable('licenses').set({ plan_id: 'free' }).where('company_id', '=', pro.company.id).execute();
    try {
      expect((await t.gql(SHARED, { token })).errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);
      // The digest's time moves on without a run.
      expect(await sweepDueDigests(t.app.services, due)).toBe(0);
      const after = await db.selectFrom('seller_report_digests').select('next_send_at').executeTakeFirstOrThrow();
      expect(after.next_send_at.getTime()).toBeGreaterThan(due.getTime());
    } finally {
      await db.updateTable('licenses').set({ plan_id: 'pro' }).where('company_id', '=', pro.company.id).execute();
    }
    expect((await t.gql(SHARED, { token })).errors).toBeUndefined();
  });
  it('tries a digest again after a recipient was refused, without mailing those it already reached', async () => {
    const saved = await t.gql(
      DIGEST_SAVE,
      { input: { tourId, frequency: 'MONTHLY', day: 3, recipients: ['first@example.com', 'busy@example.com'] } },
      pro.token,
    );
    expect(saved.errors).toBeUndefined();
    smtp.refuseOnce.add('busy@example.com');
    expect(
      await sweepDueDigests(
        t.app.services,
        new Date(new Date(saved.data.sellerReportDigestSave.nextSendAt).getTime() + 60_000),
      ),
    ).toBe(1);
    const to = (address: string) => smtp.inbox.filter((m) => m.to.includes(address));
    // The queue tries the run again after the refusal; busy@ gets its mail on the second attempt.
    const run = await vi.waitFor(
      async () => {
        const r = await t.app.services.db
          .selectFrom('seller_report_runs')
          .selectAll()
          .where('kind', '=', 'DIGEST')
          .orderBy('created_at', 'desc')
          .executeTakeFirstOrThrow();
        if (r.status !== 'DONE' && r.status !== 'FAILED') throw new Error(`run ${r.status}, attempt ${r.attempt}`);
        return r;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(run).toMatchObject({ status: 'DONE', attempt: 2, sent_to: ['first@example.com', 'busy@example.com'] });
    expect(smtp.refuseOnce.size).toBe(0);
    expect(to('first@example.com')).toHaveLength(1);
    expect(to('busy@example.com')).toHaveLength(1);
  });
  it("a PDF made from a report filtered by an audience link shows that link's visits only, and says so", async () => {
    const [link] = await t.app.services.db
      .insertInto('audience_links')
      .values({
        tour_id: tourUuid,
        company_id: pro.company.id,
        token: randomBytes(24).toString('base64url'),
        label: 'Open day',
      })
      .returning('id')
      .execute();
    await recordVisit(t.app.services, {
      tourId,
      visitorId: 'visitor-link-cccc',
      secondsSpent: 40,
      roomsReached: 3,
      segments: [{ room: 'Master Bedroom', seconds: 40 }],
      reachedEnd: false,
      device: 'phone',
      link: (
        await t.app.services.db
          .selectFrom('audience_links')
          .select('token')
          .where('id', '=', link!.id)
          .executeTakeFirstOrThrow()
      ).token,
    });
    const pdfOf = async (input: Record<string, unknown>) => {
      const started = await t.gql(PDF_CREATE, { input: { tourId, days: 30, ...input } }, pro.token);
      expect(started.errors).toBeUndefined();
      const done = await vi.waitFor(
        async () => {
          const r = (await t.gql(RUN, { id: started.data.sellerReportPdfCreate.id }, pro.token)).data.sellerReportRun;
          if (r.status !== 'DONE') throw new Error(`run ${r.status} ${r.progress}`);
          return r;
        },
        { timeout: 20_000, interval: 100 },
      );
      return { name: done.fileName as string, text: pdfText(Buffer.from(done.fileContent, 'base64'), 'link') };
    };
    const filtered = await pdfOf({ audienceLinkId: `audlink_${link!.id}` });
    expect(filtered.text).toContain('Visits through the link: Open day');
    expect(filtered.text).toMatch(/Master Bedroom\s+40 s in all, 1 visit/);
    expect(filtered.text).not.toContain('Kitchen');
    expect(filtered.name).toMatch(/^seller-report-garden-cottage-open-day-/);
    const whole = await pdfOf({});
    expect(whole.text).not.toContain('Visits through the link');
    expect(whole.text).toMatch(/Kitchen\s+1 min 50 s in all, 2 visits/);
    // Another tour's link, or a made-up one, is no filter.
    const bad = await t.gql(
      PDF_CREATE,
      { input: { tourId, audienceLinkId: 'audlink_00000000-0000-4000-8000-000000000000' } },
      pro.token,
    );
    expect(bad.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);
  });
});
