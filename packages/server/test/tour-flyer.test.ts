/**
 * The open-house flyer (issue 41, docs/embedding.md "Open-house flyer"): the PDF opens (poppler's pdfinfo) at A4 or US
 * Letter, prints the title, the rooms, the agent and the company (pdftotext), and its QR code, rasterised by
 * pdftoppm in colour and in grey, decodes (jsQR) to the tour's share link; unbranded, it names no company and no agent
 * and its code is the unbranded link. Only members of the tour's company get it.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import jsQRModule from 'jsqr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedProcessedTour } from './fixtures/tours.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const run = promisify(execFile);
/** jsQR is CommonJS whose types declare an ES default export: under Node's interop the module itself is the function. */
type Decode = typeof jsQRModule.default;
const jsQR = (typeof jsQRModule === 'function' ? jsQRModule : (jsQRModule as { default: Decode }).default) as Decode;
const MARKER_SAVE = 'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }';
const ROOMS = ['Hall', 'Main bedroom', 'Kitchen', 'Garden'];

describe('open-house flyer', () => {
  let t: TestApp;
  let owner: SeededUser;
  let stranger: SeededUser;
  let tourId: string;
  let company: string;
  let dir: string;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-flyer-'));
    t = await startTestApp('pglite', { ROLE: 'api' });
    owner = await seedUser(t.app, { plan: 'pro', name: 'Ama', surname: 'Mensah' });
    stranger = await seedUser(t.app, { plan: 'pro' });
    const { db, storage } = t.app.services;
    const seeded = await seedProcessedTour(t, owner, 2);
    tourId = seeded.id;
    // A real picture as the cover, a real logo.
    const cover = await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#7a8c9a' } })
      .composite([
        {
          input: Buffer.from(
            '<svg width="1280" height="720"><rect x="200" y="150" width="500" height="400" fill="#c0a080"/></svg>',
          ),
        },
      ])
      .jpeg()
      .toBuffer();
    await storage.put(`tours/${seeded.row.id}/v1/thumbnail.jpg`, cover, 'image/jpeg');
    const logoKey = `companies/${owner.company.id}/logo.png`;
    await storage.put(
      logoKey,
      await sharp({ create: { width: 200, height: 60, channels: 3, background: '#0b5cad' } })
        .png()
        .toBuffer(),
      'image/png',
    );
    await db
      .updateTable('companies')
      .set({ logo_key: logoKey, accent_color: '#0b5cad' })
      .where('id', '=', owner.company.id)
      .execute();
    await db.updateTable('tours').set({ title: 'Harbour Loft' }).where('id', '=', seeded.row.id).execute();
    for (const [i, name] of ROOMS.entries())
      expect(
        (await t.gql(MARKER_SAVE, { input: { tourId, name, frameIndex: i * 18 } }, owner.token)).errors,
      ).toBeUndefined();
    company = (
      await db.selectFrom('companies').select('name').where('id', '=', owner.company.id).executeTakeFirstOrThrow()
    ).name;
  });
  afterAll(async () => {
    await t?.stop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  const flyer = (q: string, token: string | null = owner.token) =>
    fetch(`${t.url}/tours/${tourId}/flyer.pdf?${q}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  async function save(res: Response, name: string): Promise<string> {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Harbour-Loft-flyer.pdf"');
    const file = path.join(dir, name);
    await fs.writeFile(file, Buffer.from(await res.arrayBuffer()));
    return file;
  }

  /** The QR codes jsQR reads on the first page, rasterised at 150 dpi (in grey with `gray`). */
  async function qr(file: string, gray = false): Promise<string | null> {
    const out = path.join(dir, `${path.basename(file, '.pdf')}${gray ? '-gray' : ''}`);
    await run('pdftoppm', [
      '-r',
      '150',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      ...(gray ? ['-gray'] : []),
      '-png',
      file,
      out,
    ]);
    const { data, info } = await sharp(`${out}.png`).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return (
      jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data ?? null
    );
  }

  const text = async (file: string) => (await run('pdftotext', ['-layout', file, '-'])).stdout;
  const pageSize = async (file: string) =>
    /Page size:\s+([\d.]+) x ([\d.]+) pts/
      .exec((await run('pdfinfo', [file])).stdout)!
      .slice(1)
      .map(Number);

  it('A4 and US Letter: title, rooms, agent and company printed; the QR code is the share link, in grey too', async () => {
    for (const [paper, size] of [
      ['A4', [595.28, 841.89]],
      ['LETTER', [612, 792]],
    ] as const) {
      const file = await save(await flyer(`paper=${paper}`), `${paper}.pdf`);
      const [w, h] = await pageSize(file);
      expect(w).toBeCloseTo(size[0], 0);
      expect(h).toBeCloseTo(size[1], 0);
      const words = await text(file);
      expect(words).toContain('Harbour Loft');
      for (const room of ROOMS) expect(words).toContain(room);
      expect(words).toContain('Ama Mensah');
      expect(words).toContain(owner.user.username);
      expect(words).toContain(company);
      expect(words).toContain('Scan to walk through');
      expect(await qr(file)).toBe(`${t.url}/playerext?tourId=${tourId}`);
      expect(await qr(file, true)).toBe(`${t.url}/playerext?tourId=${tourId}`);
    }
  });

  it('unbranded: no company, no agent; the QR code is the unbranded link', async () => {
    const file = await save(await flyer('paper=A4&unbranded=true'), 'unbranded.pdf');
    const words = await text(file);
    expect(words).toContain('Harbour Loft');
    expect(words).not.toContain(company);
    expect(words).not.toContain('Ama Mensah');
    expect(words).not.toContain(owner.user.username);
    expect(await qr(file)).toBe(`${t.url}/playerext?tourId=${tourId}&unbranded=true`);
  });

  it('refuses without a session, to another company, and a paper size it does not make', async () => {
    expect((await flyer('paper=A4', null)).status).toBe(401);
    expect((await flyer('paper=A4', stranger.token)).status).toBe(404);
    const bad = await flyer('paper=A5');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBe('Choose A4 or US Letter.');
  });
});
