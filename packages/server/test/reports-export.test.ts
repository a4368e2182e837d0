import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { extractText, getDocumentProxy } from 'unpdf';
import { ERROR_CODES } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { insertTours } from './billing-helpers.js';
import { toursByCompany } from '../src/services/reports/report-data.js';
import { neutraliseFormula } from '../src/services/reports/csv.js';
import { toFontText } from '../src/services/reports/pdf.js';

const TOURS =
  'mutation($input: ReportExportInput!) { generateTourByCompanyReport(input: $input) { fileContent fileName mimeType } }';
const USERS =
  'mutation($input: ReportExportInput!) { generateSummaryByUserReport(input: $input) { fileContent fileName mimeType } }';

const csvRows = (base64: string): string[][] =>
  parse(Buffer.from(base64, 'base64'), { bom: true, relax_column_count: false }) as string[][];

interface TextBox {
  text: string;
  page: number;
  left: number;
  right: number;
  bottom: number;
  top: number;
}

/** Every text run of the PDF with its box in page units (from the content stream, as a viewer places it). */
async function pdfTextBoxes(base64: string): Promise<TextBox[]> {
  const pdf = await getDocumentProxy(new Uint8Array(Buffer.from(base64, 'base64')));
  const boxes: TextBox[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    for (const item of content.items as Array<{ str?: string; transform: number[]; width: number; height: number }>) {
      if (!item.str?.trim()) continue;
      const [x, y] = [item.transform[4]!, item.transform[5]!];
      boxes.push({ text: item.str, page: n, left: x, right: x + item.width, bottom: y, top: y + item.height });
    }
  }
  return boxes;
}

/** Pairs of text runs whose boxes overlap (0.5 pt of tolerance on every side). */
function overlappingText(boxes: TextBox[]): string[] {
  const out: string[] = [];
  const e = 0.5;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i]!, boxes[j]!];
      if (a.page !== b.page) continue;
      if (a.left + e < b.right - e && b.left + e < a.right - e && a.bottom + e < b.top - e && b.bottom + e < a.top - e)
        out.push(`"${a.text}" / "${b.text}"`);
    }
  }
  return out;
}

async function pdfPages(base64: string): Promise<string[]> {
  const pdf = await getDocumentProxy(new Uint8Array(Buffer.from(base64, 'base64')));
  const { text } = await extractText(pdf, { mergePages: false });
  return (text as string[]).map((p) => p.replace(/\s+/g, ' '));
}

describe('report helpers', () => {
  it('neutralises every formula trigger and leaves other text alone', () => {
    for (const v of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(neutraliseFormula(v)).toBe(`'${v}`);
    for (const v of ['Sea view', "'quoted", '1 = 1', '']) expect(neutraliseFormula(v)).toBe(v);
  });
  it('keeps what the standard PDF font can draw and replaces the rest', () => {
    expect(toFontText('Café – “Seaside” €5')).toBe('Café – “Seaside” €5');
    expect(toFontText('Łódź 東京 ő')).toBe('?ódz ?? o');
  });
});

describe.each(DB_KINDS)('business reports on %s', (kind) => {
  let t: TestApp;
  let admin: SeededUser;
  let member: SeededUser;
  let tourIds: string[];
  const titles = ['Sea Point flat', '=HYPERLINK("http://evil.example","x")', 'Café in Łódź', '+27 Main Road', '@home'];

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await seedUser(t.app, { plan: 'basic', name: 'Ada', surname: 'Admin' });
    await t.app.services.db
      .updateTable('companies')
      .set({ name: 'Harbour Homes' })
      .where('id', '=', admin.company.id)
      .execute();
    admin.company.name = 'Harbour Homes';
    member = await seedUser(t.app, { companyId: admin.company.id, name: 'Max', surname: 'Member' });
    const db = t.app.services.db;
    const start = new Date(Date.now() - 10 * 24 * 3600 * 1000);
    tourIds = [
      ...(await insertTours(t.app, { companyId: admin.company.id, userId: admin.user.id }, 3, {
        start,
        title: (i) => titles[i]!,
        views: (i) => [12, 40, 7][i]!,
      })),
      ...(await insertTours(t.app, { companyId: admin.company.id, userId: member.user.id }, 2, {
        start: new Date(start.getTime() + 3600_000),
        title: (i) => titles[3 + i]!,
        views: (i) => [5, 100][i]!,
      })),
    ];
    // A deleted tour is left out of the tour list but its views count as deleted-tour views; a deactivated one is
    // listed as such.
    const [deleted] = await insertTours(t.app, { companyId: admin.company.id, userId: member.user.id }, 1, {
      title: () => 'Gone',
      views: () => 9,
    });
    await db.updateTable('tours').set({ deleted_at: new Date() }).where('id', '=', deleted!).execute();
    await db
      .updateTable('tours')
      .set({ deactivated_at: new Date(), deactivated_views: 3 })
      .where('id', '=', tourIds[2]!)
      .execute();
    // Uploads this month: admin 2, member 1; one from long ago does not count.
    const uploads = [admin, admin, member].map((u, i) => ({
      key: `up-${kind}-${i}`,
      company_id: admin.company.id,
      user_id: u.user.id,
      extension: 'mp4',
      submitted_at: new Date(),
    }));
    await db
      .insertInto('uploads')
      .values([
        ...uploads,
        {
          key: `up-${kind}-old`,
          company_id: admin.company.id,
          user_id: member.user.id,
          extension: 'mp4',
          submitted_at: new Date('2020-01-01'),
        },
      ])
      .execute();
    // Visits: two on the first tour (one visitor twice), one on the member's top tour, starting now (in the licence's
    // period); each lasts as long as it says (a visit's seconds are read as at most from its first beacon to its last).
    const visit = (tour: string, visitor_id: string, seconds_spent: number, rooms_reached: number) => ({
      tour_id: tour,
      company_id: admin.company.id,
      visitor_id,
      started_at: new Date(),
      last_seen_at: new Date(Date.now() + seconds_spent * 1000),
      seconds_spent,
      rooms_reached,
    });
    await db
      .insertInto('view_events')
      .values([
        visit(tourIds[0]!, 'visitor-aaaa', 30, 2),
        visit(tourIds[0]!, 'visitor-aaaa', 90, 4),
        visit(tourIds[4]!, 'visitor-bbbb', 60, 5),
      ])
      .execute();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('Tours By Company as CSV: every tour with owner, status, created date, views and visits, formulas neutralised, totals', async () => {
    const r = await t.gql(TOURS, { input: { companyId: admin.companyId } }, admin.token);
    expect(r.errors).toBeUndefined();
    const file = r.data.generateTourByCompanyReport;
    expect(file.mimeType).toBe('text/csv');
    expect(file.fileName).toMatch(/^tours-by-company-harbour-homes-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = csvRows(file.fileContent);
    expect(rows[0]).toEqual([
      'Tour',
      'Owner',
      'Owner email',
      'Status',
      'Created',
      'Views (visits)',
      'Unique visitors',
      'Avg. seconds per visit',
      'Avg. rooms per visit',
    ]);
    const body = rows.slice(1, 6);
    // Newest first.
    const tours = await t.app.services.db
      .selectFrom('tours')
      .selectAll()
      .where('id', 'in', tourIds)
      .orderBy('created_at', 'desc')
      .execute();
    expect(body.map((row) => row[0])).toEqual(tours.map((x) => neutraliseFormula(x.title!)));
    expect(body.map((row) => row[0])).toContain('\'=HYPERLINK("http://evil.example","x")');
    expect(body.map((row) => row[0])).toContain("'+27 Main Road");
    expect(body.map((row) => row[0])).toContain("'@home");
    expect(body.map((row) => row[0])).toContain('Café in Łódź');
    for (const row of body) {
      const tour = tours.find((x) => neutraliseFormula(x.title!) === row[0])!;
      const ownerIsAdmin = tour.owner_id === admin.user.id;
      expect(row[1]).toBe(ownerIsAdmin ? 'Ada Admin' : 'Max Member');
      expect(row[2]).toBe(ownerIsAdmin ? admin.user.username : member.user.username);
      expect(row[3]).toBe(tour.id === tourIds[2] ? 'DEACTIVATED' : 'PROCESSED');
      expect(row[4]).toBe(new Date(tour.created_at).toISOString().slice(0, 10));
      expect(Number(row[5])).toBe(tour.views);
    }
    const first = body.find((row) => row[0] === 'Sea Point flat')!;
    expect(first.slice(6)).toEqual(['1', '60', '3']);
    expect(rows[6]).toEqual(['Total: 5 tours', '', '', '', '', String(12 + 40 + 7 + 5 + 100), '2', '60', '3.7']);
    expect(rows.slice(7).map((row) => row[0])).toContain('Views are lifetime totals; deleted tours are not listed.');
    expect(rows.flat()).not.toContain('Gone');
  });

  it('User Summary as CSV: per member monthly active and uploaded tours, views, deleted views and top tours', async () => {
    const r = await t.gql(USERS, { input: { companyId: admin.companyId, exportType: 'csv' } }, admin.token);
    const rows = csvRows(r.data.generateSummaryByUserReport.fileContent);
    expect(rows[0]).toEqual([
      'Name',
      'Email',
      'Role',
      'Monthly active tours',
      'Monthly uploaded tours',
      'Total views',
      'Deleted tour views',
      'Top performing tours',
      'Visits this month',
      'Avg. seconds per visit',
    ]);
    expect(rows[1]).toEqual([
      'Ada Admin',
      admin.user.username,
      'Admin User',
      '2',
      '2',
      '59',
      '10',
      '\'=HYPERLINK("http://evil.example","x") (40); Sea Point flat (12); Café in Łódź (7)',
      '2',
      '60',
    ]);
    expect(rows[2]).toEqual([
      'Max Member',
      member.user.username,
      'Standard User',
      '2',
      '1',
      '105',
      '9',
      "'@home (100); +27 Main Road (5)",
      '1',
      '60',
    ]);
    expect(rows[3]).toEqual(['Total: 2 users', '', '', '4', '3', '164', '19', '', '3', '60']);
  });

  it('Tours By Company as PDF: title, company, period, table rows, totals and page numbers', async () => {
    const r = await t.gql(TOURS, { input: { companyId: admin.companyId, exportType: 'pdf' } }, admin.token);
    const file = r.data.generateTourByCompanyReport;
    expect(file.mimeType).toBe('application/pdf');
    expect(file.fileName).toMatch(/\.pdf$/);
    expect(Buffer.from(file.fileContent, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const pages = await pdfPages(file.fileContent);
    expect(pages).toHaveLength(1);
    const text = pages[0]!;
    expect(text).toContain('Tours By Company');
    expect(text).toContain('Harbour Homes');
    expect(text).toMatch(/Period: \d{1,2} [A-Z][a-z]{2} \d{4} - \d{1,2} [A-Z][a-z]{2} \d{4}/);
    for (const title of ['Sea Point flat', '+27 Main Road', '@home', 'Café in ?ódz']) expect(text).toContain(title);
    expect(text).toContain('Ada Admin');
    expect(text).toContain('DEACTIVATED');
    expect(text).toContain('Total: 5 tours');
    expect(text).toContain('164');
    expect(text).toContain('Page 1 of 1');
  });

  it('User Summary as PDF carries every member and the totals', async () => {
    const r = await t.gql(USERS, { input: { companyId: admin.companyId, exportType: 'pdf' } }, admin.token);
    const text = (await pdfPages(r.data.generateSummaryByUserReport.fileContent)).join(' ');
    expect(text).toContain('User Summary');
    expect(text).toContain('Max Member');
    expect(text).toContain('Standard User');
    expect(text).toContain('Total: 2 users');
    expect(text).toContain('Page 1 of 1');
  });

  it('lays the User Summary PDF out from its content: long top tours wrap inside their cell, nothing cut or overlapping', async () => {
    const co = await seedUser(t.app, { plan: 'basic', name: 'Thandiwe', surname: 'Nkosi-Williamson' });
    const agent = await seedUser(t.app, { companyId: co.company.id, name: 'Pieter', surname: 'van der Westhuizen' });
    const long = [
      'Penthouse with panoramic Atlantic views, Bantry Bay',
      'Renovated Victorian semi in Observatory with garden',
      'Three-bedroom family home, Durbanville Hills estate',
      'Sea-facing studio apartment on Beach Road, Mouille Point',
      'Garden cottage near Kirstenbosch',
    ];
    await insertTours(t.app, { companyId: co.company.id, userId: agent.user.id }, long.length, {
      title: (i) => long[i]!,
      views: (i) => 50 - i,
    });
    await insertTours(t.app, { companyId: co.company.id, userId: co.user.id }, 2, {
      title: (i) => ['Loft in Woodstock Exchange building', 'Bo-Kaap heritage townhouse'][i]!,
      views: (i) => 9 - i,
    });
    const r = await t.gql(USERS, { input: { companyId: co.companyId, exportType: 'pdf' } }, co.token);
    expect(r.errors).toBeUndefined();
    const boxes = await pdfTextBoxes(r.data.generateSummaryByUserReport.fileContent);
    expect(overlappingText(boxes)).toEqual([]);
    expect(boxes.filter((b) => /\.\.\.|…/.test(b.text)).map((b) => b.text)).toEqual([]);
    const text = boxes
      .map((b) => b.text)
      .join(' ')
      .replace(/\s+/g, ' ');
    // Whole names (lines may break after a hyphen or a space): compare without white space.
    const flat = text.replace(/\s+/g, '');
    for (const title of long) expect(flat).toContain(title.replace(/\s+/g, ''));
    expect(text).toContain('Pieter van der Westhuizen');
    expect(text).toContain(agent.user.username);
    // The long cell really wraps: its text spans several lines within its column.
    const topTourLines = new Set(
      boxes
        .filter((b) => long.some((t) => t.includes(b.text.trim()) || b.text.includes('Bantry')))
        .map((b) => Math.round(b.bottom)),
    );
    expect(topTourLines.size).toBeGreaterThan(1);
  });

  it('repeats the table header and numbers every page of a long PDF', async () => {
    const big = await seedUser(t.app, { plan: 'pro' });
    await insertTours(t.app, { companyId: big.company.id, userId: big.user.id }, 70, {
      title: (i) => `Listing ${String(i).padStart(3, '0')}`,
    });
    const r = await t.gql(TOURS, { input: { companyId: big.companyId, exportType: 'pdf' } }, big.token);
    const pages = await pdfPages(r.data.generateTourByCompanyReport.fileContent);
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((p, i) => {
      expect(p).toContain(`Page ${i + 1} of ${pages.length}`);
      expect(p).toContain('Owner email');
    });
    const all = pages.join(' ');
    for (let i = 0; i < 70; i++) expect(all).toContain(`Listing ${String(i).padStart(3, '0')}`);
    expect(pages.at(-1)).toContain('Total: 70 tours');
  });

  it('shows counts only on plans without Tour Analytics', async () => {
    const entry = await seedUser(t.app, { plan: 'entry' });
    await insertTours(t.app, { companyId: entry.company.id, userId: entry.user.id }, 1, { views: () => 4 });
    const r = await t.gql(TOURS, { input: { companyId: entry.companyId } }, entry.token);
    const rows = csvRows(r.data.generateTourByCompanyReport.fileContent);
    expect(rows[0]).toEqual(['Tour', 'Owner', 'Owner email', 'Status', 'Created', 'Views (visits)']);
    const u = await t.gql(USERS, { input: { companyId: entry.companyId } }, entry.token);
    expect(csvRows(u.data.generateSummaryByUserReport.fileContent)[0]).not.toContain('Visits this month');
  });

  it('caps the rows and says so, with totals over all tours', async () => {
    const table = await toursByCompany(t.app.services.db, {
      companyId: admin.company.id,
      analytics: false,
      maxRows: 2,
      now: new Date(),
    });
    expect(table.rows).toHaveLength(2);
    expect(table.totals.title).toBe('Total: 5 tours');
    expect(table.notes).toContain('Showing the newest 2 of 5 tours; totals cover all of them.');
  });

  it('answers only admins of the same company', async () => {
    const other = await seedUser(t.app, { plan: 'basic' });
    expect((await t.gql(TOURS, { input: { companyId: admin.companyId } })).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.UNAUTHENTICATED,
    );
    expect(
      (await t.gql(TOURS, { input: { companyId: admin.companyId } }, other.token)).errors?.[0]?.extensions?.code,
    ).toBe(ERROR_CODES.NOT_FOUND);
    expect(
      (await t.gql(USERS, { input: { companyId: 'company_nonsense' } }, admin.token)).errors?.[0]?.extensions?.code,
    ).toBe(ERROR_CODES.NOT_FOUND);
    expect(
      (await t.gql(USERS, { input: { companyId: admin.companyId } }, member.token)).errors?.[0]?.extensions?.code,
    ).toBe(ERROR_CODES.FORBIDDEN);
    expect((await t.gql(TOURS, { input: { companyId: admin.companyId, exportType: 'xls' } }, admin.token)).status).toBe(
      400,
    );
  });
});
