/**
 * The open-house flyer (docs/embedding.md "Open-house flyer"): one A4 or US Letter page with the tour's cover picture,
 * title and rooms, a QR code to its share link, the agent's card and the company's branding (an unbranded flyer has
 * neither, and its QR code is the unbranded link). Black text on white, the QR code in pure black drawn as vector
 * squares, colour only in a thin rule: it prints the same in black and white. pdfkit's built-in Helvetica.
 */
import { buffer } from 'node:stream/consumers';
import { ERROR_TEXTS, FLYER_TEXTS, type FlyerSize } from '@roomwalk/shared';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import sharp from 'sharp';
import type { AuthInfo } from '../../core/auth.js';
import { notFound } from '../../core/errors.js';
import { decodeId, encodeId } from '../../core/ids.js';
import { contactOf } from '../audience-links/link-view.js';
import { requestBranding } from '../branding.js';
import { toFontText } from '../reports/pdf.js';
import type { Services } from '../services.js';
import { SHARE_TEXTS, shareUrl } from './share-card.js';
import { serverNow } from '../../core/clock.js';

const MARGIN = 48;
const INK = '#000000';
const MUTED = '#333333';
const QR_SIZE = 150;

export interface FlyerInput {
  tourId: string;
  paper: FlyerSize;
  unbranded: boolean;
}

/** What a flyer shows, read once (the PDF is drawn from it alone). */
interface FlyerContent {
  title: string;
  rooms: string[];
  url: string;
  cover: Buffer | null;
  company: { name: string; logo: Buffer | null; accent: string | null } | null;
  agent: { name: string | null; email: string; phone: string | null } | null;
}

async function read(services: Services, key: string | null): Promise<Buffer | null> {
  if (!key) return null;
  const obj = await services.storage.get(key);
  return obj ? buffer(obj.stream) : null;
}

/** An image pdfkit draws (JPEG or PNG), or null when it is none sharp reads (an SVG logo becomes a PNG). */
async function drawable(image: Buffer | null, jpeg: boolean): Promise<Buffer | null> {
  if (!image) return null;
  try {
    const s = sharp(image, { limitInputPixels: 50_000_000 }).rotate();
    return jpeg ? await s.jpeg({ quality: 88 }).toBuffer() : await s.png().toBuffer();
  } catch {
    return null;
  }
}

async function flyerContent(services: Services, auth: AuthInfo, input: FlyerInput): Promise<FlyerContent> {
  const id = decodeId('Tour', input.tourId);
  const tour = await services.db
    .selectFrom('tours')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  // Members of the tour's company make its flyer (team members share each other's tours).
  if (!tour || tour.company_id !== auth.companyId) throw notFound(ERROR_TEXTS.tourNotFound);
  const markers = await services.db
    .selectFrom('markers')
    .select('name')
    .where('tour_id', '=', tour.id)
    .orderBy('frame_index')
    .orderBy('created_at')
    .execute();
  const url = shareUrl(services.config.publicUrl, {
    tourId: encodeId('Tour', tour.id),
    link: null,
    unbranded: input.unbranded,
  });
  const cover = await drawable(await read(services, tour.share_image_key ?? tour.thumbnail_key), true);
  if (input.unbranded)
    return {
      title: tour.title?.trim() || SHARE_TEXTS.untitled,
      rooms: markers.map((m) => m.name),
      url,
      cover,
      company: null,
      agent: null,
    };
  const [company, branding, agent] = await Promise.all([
    services.db.selectFrom('companies').select('name').where('id', '=', tour.company_id).executeTakeFirstOrThrow(),
    requestBranding({}, services.db, tour.company_id, serverNow(services)),
    contactOf(services, tour),
  ]);
  return {
    title: tour.title?.trim() || SHARE_TEXTS.untitled,
    rooms: markers.map((m) => m.name),
    url,
    cover,
    company: {
      name: company.name,
      logo: await drawable(await read(services, branding?.logoKey ?? null), false),
      accent: branding?.accentColor ?? null,
    },
    agent,
  };
}

/** Draws the QR code's dark modules as black squares (vector: sharp at any printer's resolution). */
function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const quiet = 4;
  const cell = size / (n + 2 * quiet);
  doc.rect(x, y, size, size).fill('#ffffff');
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++)
      if (qr.modules.get(r, c)) doc.rect(x + (c + quiet) * cell, y + (r + quiet) * cell, cell, cell);
  doc.fill(INK);
}

function drawFlyer(doc: PDFKit.PDFDocument, f: FlyerContent): void {
  const W = doc.page.width;
  const H = doc.page.height;
  const inner = W - 2 * MARGIN;
  let y = MARGIN;

  if (f.company) {
    const logoH = 40;
    if (f.company.logo) {
      try {
        doc.image(f.company.logo, MARGIN, y, { fit: [160, logoH] });
      } catch {
        // A logo pdfkit cannot read: the company's name alone.
      }
    }
    doc.font('Helvetica-Bold').fontSize(14).fillColor(INK);
    doc.text(toFontText(f.company.name), MARGIN, y + 12, { width: inner, align: 'right' });
    y += logoH + 10;
    doc.rect(MARGIN, y, inner, 3).fill(f.company.accent ?? INK);
    doc.fillColor(INK);
    y += 14;
  }

  if (f.cover) {
    const h = Math.round(inner / (1200 / 630));
    doc.image(f.cover, MARGIN, y, { width: inner, height: h });
    doc.rect(MARGIN, y, inner, h).lineWidth(0.75).stroke(INK);
    y += h + 18;
  }

  doc.font('Helvetica-Bold').fontSize(26).fillColor(INK);
  doc.text(toFontText(f.title), MARGIN, y, { width: inner });
  y = doc.y + 10;

  if (f.rooms.length) {
    doc.font('Helvetica-Bold').fontSize(12).text(FLYER_TEXTS.rooms, MARGIN, y, { width: inner });
    doc.font('Helvetica').fontSize(12).fillColor(MUTED);
    doc.text(toFontText(f.rooms.join('  ·  ')), MARGIN, doc.y + 4, { width: inner, lineGap: 3 });
    y = doc.y + 16;
  }

  // The QR code and the agent's card share the bottom of the page.
  const bottom = H - MARGIN - QR_SIZE - 34;
  const qrY = Math.max(y, bottom);
  drawQr(doc, f.url, MARGIN, qrY, QR_SIZE);
  doc.font('Helvetica-Bold').fontSize(11).fillColor(INK);
  doc.text(FLYER_TEXTS.scan, MARGIN, qrY + QR_SIZE + 4, { width: QR_SIZE + 120 });
  doc.font('Helvetica').fontSize(8).fillColor(MUTED);
  doc.text(f.url, MARGIN, doc.y + 2, { width: inner });

  if (f.agent) {
    const x = MARGIN + QR_SIZE + 30;
    const w = W - MARGIN - x;
    doc.rect(x, qrY, w, QR_SIZE).lineWidth(1).stroke(INK);
    let ay = qrY + 16;
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor(MUTED)
      .text(FLYER_TEXTS.agent.toUpperCase(), x + 16, ay, { width: w - 32 });
    ay = doc.y + 6;
    doc.font('Helvetica-Bold').fontSize(16).fillColor(INK);
    doc.text(toFontText(f.agent.name ?? f.agent.email), x + 16, ay, { width: w - 32 });
    doc.font('Helvetica').fontSize(12);
    if (f.agent.phone) doc.text(toFontText(f.agent.phone), x + 16, doc.y + 6, { width: w - 32 });
    doc.text(toFontText(f.agent.email), x + 16, doc.y + 4, { width: w - 32 });
  }
}

/** The flyer as a PDF (one page). */
export async function tourFlyerPdf(
  services: Services,
  auth: AuthInfo,
  input: FlyerInput,
): Promise<{ pdf: Buffer; title: string }> {
  const content = await flyerContent(services, auth, input);
  const doc = new PDFDocument({
    size: input.paper,
    margin: MARGIN,
    info: { Title: toFontText(content.title), Creator: 'Roomwalk' },
  });
  const done = buffer(doc);
  drawFlyer(doc, content);
  doc.end();
  return { pdf: await done, title: content.title };
}
