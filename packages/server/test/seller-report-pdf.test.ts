/**
 * The seller report PDF reads well: pdftotext finds the figures in reading order, and pdftoppm renders every page to an
 * image that is not blank, with the charts' colours where the pictures are (poppler-utils, as installed on CI).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SellerFigures, SellerReportSubject } from '../src/services/seller-reports/figures.js';
import { sellerReportToPdf } from '../src/services/seller-reports/seller-pdf.js';
import { digestMail } from '../src/services/seller-reports/digest-mail.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'seller-pdf-'));
afterAll(() => (process.env.KEEP_PDF ? undefined : fs.rmSync(work, { recursive: true, force: true })));

const subject: SellerReportSubject = {
  tourTitle: '12 Rue des Lilas – family house',
  companyName: 'Ånd Estates',
  agentName: 'Thandi Nkosi',
  from: new Date('2026-11-01T00:00:00Z'),
  to: new Date('2026-12-01T00:00:00Z'),
};
const daily = Array.from({ length: 30 }, (_v, i) => ({
  date: `2026-11-${String(i + 1).padStart(2, '0')}`,
  visits: (i * 7) % 5,
}));
const figures: SellerFigures = {
  visits: 60,
  uniqueVisitors: 41,
  averageSeconds: 154,
  completionRate: 0.35,
  rooms: [
    { name: 'Master Bedroom', seconds: 40 * 60, visits: 30 },
    { name: 'Kitchen', seconds: 90 * 60, visits: 52 },
    { name: 'Salle à manger', seconds: 12 * 60, visits: 20 },
  ],
  exits: [
    { name: 'Kitchen', visits: 21 },
    { name: 'Garden', visits: 39 },
  ],
  daily,
};

interface Pnm {
  width: number;
  height: number;
  channels: number;
  pixels: Buffer;
}
/** Reads a binary PPM (P6) or PGM (P5) as pdftoppm writes them. */
function readPnm(file: string): Pnm {
  const buf = fs.readFileSync(file);
  const header: string[] = [];
  let at = 0;
  while (header.length < 4) {
    while (/\s/.test(String.fromCharCode(buf[at]!))) at++;
    let tok = '';
    while (!/\s/.test(String.fromCharCode(buf[at]!))) tok += String.fromCharCode(buf[at++]!);
    header.push(tok);
  }
  at++;
  return {
    width: Number(header[1]),
    height: Number(header[2]),
    channels: header[0] === 'P6' ? 3 : 1,
    pixels: buf.subarray(at),
  };
}

async function render(name: string, s: SellerReportSubject, f: SellerFigures) {
  const pdf = await sellerReportToPdf(s, f, new Date('2026-12-01T08:00:00Z'));
  const file = path.join(work, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  execFileSync('pdftoppm', ['-r', '50', file, path.join(work, name)]);
  const pages = fs
    .readdirSync(work)
    .filter((p) => p.startsWith(`${name}-`) && p.endsWith('.ppm'))
    .sort()
    .map((p) => readPnm(path.join(work, p)));
  return { pdf, text, pages };
}

/** Share of pixels that are not near-white, and of pixels close to an RGB colour. */
function inkShare(p: Pnm): number {
  let ink = 0;
  for (let i = 0; i < p.pixels.length; i += 3)
    if (p.pixels[i]! < 200 || p.pixels[i + 1]! < 200 || p.pixels[i + 2]! < 200) ink++;
  return ink / (p.width * p.height);
}
function colourShare(p: Pnm, [r, g, b]: [number, number, number]): number {
  let hits = 0;
  for (let i = 0; i < p.pixels.length; i += 3)
    if (Math.abs(p.pixels[i]! - r) < 30 && Math.abs(p.pixels[i + 1]! - g) < 30 && Math.abs(p.pixels[i + 2]! - b) < 30)
      hits++;
  return hits / (p.width * p.height);
}

describe('seller report PDF', () => {
  it('writes the tour, period, key figures and every room in words, longest room first', async () => {
    const { pdf, text, pages } = await render('full', subject, figures);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(text).toContain('Seller report');
    expect(text).toContain('12 Rue des Lilas – family house');
    expect(text).toContain('Prepared by Thandi Nkosi, Ånd Estates');
    expect(text).toContain('Period: 1 Nov 2026 - 30 Nov 2026');
    for (const s of ['Visits', '60', 'Unique visitors', '41', 'Average visit', '2 min 34 s', 'Reached the end', '35 %'])
      expect(text).toContain(s);
    expect(text).toContain('Visits per day');
    expect(text).toContain('Time in each room');
    expect(text).toContain('1 h 30 min in all, 52 visits');
    expect(text).toContain('Salle à manger');
    // Sorted by time: Kitchen (90 min), Master Bedroom (40 min), Salle à manger (12 min).
    const order = ['Kitchen', 'Master Bedroom', 'Salle à manger'].map((r) =>
      text.indexOf(r, text.indexOf('Time in each room')),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(text).toContain('Where visits ended');
    expect(text).toMatch(/Garden\s+39 visits \(65 %\)/);
    expect(text).toContain('Page 1 of 1');
    expect(pages).toHaveLength(1);
    const page = pages[0]!;
    expect(page.channels).toBe(3);
    expect(inkShare(page)).toBeGreaterThan(0.03);
    // The line and room bars are drawn in the accent blue, the exits in amber: the pictures are really there.
    expect(colourShare(page, [0x1f, 0x6f, 0xeb])).toBeGreaterThan(0.005);
    expect(colourShare(page, [0xb5, 0x47, 0x08])).toBeGreaterThan(0.002);
  });

  it('runs onto more pages for a tour with many rooms, numbering each and leaving none blank', async () => {
    const rooms = Array.from({ length: 45 }, (_v, i) => ({
      name: `Room ${i + 1}`,
      seconds: 3000 - i * 50,
      visits: 40 - (i % 30),
    }));
    const { text, pages } = await render('long', subject, { ...figures, rooms });
    expect(pages.length).toBeGreaterThan(1);
    expect(text).toContain(`Page ${pages.length} of ${pages.length}`);
    expect(text).toContain('Room 45');
    for (const p of pages) expect(inkShare(p)).toBeGreaterThan(0.01);
  });

  it('says plainly when the period has no visits, without empty charts', async () => {
    // A one-person company named after its agent: the name is said once.
    const { text, pages } = await render(
      'empty',
      { ...subject, companyName: 'Thandi Nkosi ' },
      { visits: 0, uniqueVisitors: 0, averageSeconds: 0, completionRate: 0, rooms: [], exits: [], daily: [] },
    );
    expect(text).toContain('No visits in this period yet.');
    expect(text).toMatch(/Prepared by Thandi Nkosi\s*\n/);
    expect(text).not.toContain('Time in each room');
    expect(pages).toHaveLength(1);
    expect(colourShare(pages[0]!, [0x1f, 0x6f, 0xeb])).toBe(0);
  });
});

describe('seller report wording: counts agree with their nouns ("18 s over 1 visits")', () => {
  /** One visit that saw one room and ended there, on one day; `n` such visits. */
  const visitsOf = (n: number): SellerFigures => ({
    visits: n,
    uniqueVisitors: n,
    averageSeconds: 18,
    completionRate: 1,
    rooms: [{ name: 'Kitchen', seconds: 18 * n, visits: n }],
    exits: [{ name: 'Kitchen', visits: n }],
    daily: [{ date: '2026-11-03', visits: n }],
  });

  it('writes "1 visit" in the PDF and the digest mail for one visit, and "2 visits" for two, never "1 visits"', async () => {
    const one = await render('one-visit', subject, visitsOf(1));
    const flat = one.text.replace(/\s+/g, ' ');
    expect(flat).toContain('18 s in all, 1 visit');
    expect(flat).toMatch(/Kitchen 1 visit \(100 %\)/);
    expect(flat).toContain('Busiest day: 3 Nov 2026 with 1 visit.');
    expect(flat).not.toMatch(/\b1 visits\b/);

    const two = (await render('two-visits', subject, visitsOf(2))).text.replace(/\s+/g, ' ');
    expect(two).toContain('36 s in all, 2 visits');
    expect(two).toContain('Busiest day: 3 Nov 2026 with 2 visits.');

    const mail = (f: SellerFigures) =>
      digestMail({ to: 'seller@example.com', subject, figures: f, pdf: Buffer.from('%PDF-'), fileName: 'report.pdf' });
    expect(mail(visitsOf(1)).subject).toBe('Seller report for "12 Rue des Lilas – family house": 1 visit');
    expect(mail(visitsOf(2)).subject).toBe('Seller report for "12 Rue des Lilas – family house": 2 visits');
    for (const f of [visitsOf(1), visitsOf(0)])
      expect(`${mail(f).text} ${mail(f).html}`).not.toMatch(/\b1 (visits|visitors|hours)\b/);
  });
});
