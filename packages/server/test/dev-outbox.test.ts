/**
 * The development outbox (no SMTP_URL): a mail's attachments are kept with it and can be opened from /dev/outbox, so a
 * seller digest's PDF can be checked without a mail server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';

describe.each(DB_KINDS)('development outbox on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('keeps attachments and serves each for download', async () => {
    const pdf = Buffer.from('%PDF-1.4\n% a tiny test file\n%%EOF\n');
    expect(t.app.services.mailer.kind).toBe('outbox');
    await t.app.services.mailer.send({
      to: 'seller@example.com',
      subject: 'Seller report for "Garden Cottage": 2 visits',
      text: 'The full report is attached as a PDF.',
      html: '<p>The full report is attached as a PDF.</p>',
      links: [],
      attachments: [{ filename: 'seller-report-garden-cottage.pdf', contentType: 'application/pdf', content: pdf }],
    });
    const listed = (await (await fetch(`${t.url}/dev/outbox.json`)).json()) as Array<{
      to_address: string;
      attachments: Array<{ filename: string; contentType: string; size: number; url: string }>;
    }>;
    const mail = listed.find((m) => m.to_address === 'seller@example.com');
    expect(mail?.attachments).toEqual([
      {
        filename: 'seller-report-garden-cottage.pdf',
        contentType: 'application/pdf',
        size: pdf.length,
        url: expect.stringMatching(/^\/dev\/outbox\/[0-9a-f-]{36}\/attachments\/0$/),
      },
    ]);

    const file = await fetch(`${t.url}${mail!.attachments[0]!.url}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="seller-report-garden-cottage.pdf"');
    expect(Buffer.from(await file.arrayBuffer()).equals(pdf)).toBe(true);

    const page = await (await fetch(`${t.url}/dev/outbox`)).text();
    expect(page).toContain(`<a href="${mail!.attachments[0]!.url}" download>seller-report-garden-cottage.pdf</a>`);

    // A mail without attachments lists none; an unknown or malformed attachment path is a plain 404.
    await t.app.services.mailer.send({
      to: 'plain@example.com',
      subject: 'Plain',
      text: 'Hi',
      html: '<p>Hi</p>',
      links: [],
    });
    const again = (await (await fetch(`${t.url}/dev/outbox.json`)).json()) as Array<{
      to_address: string;
      attachments: unknown[];
    }>;
    expect(again.find((m) => m.to_address === 'plain@example.com')?.attachments).toEqual([]);
    for (const bad of [
      mail!.attachments[0]!.url.replace(/0$/, '1'),
      '/dev/outbox/not-a-uuid/attachments/0',
      '/dev/outbox/00000000-0000-4000-8000-000000000000/attachments/0',
    ]) {
      const r = await fetch(`${t.url}${bad}`);
      expect(r.status, bad).toBe(404);
      expect(await r.text()).not.toMatch(/at .*\.ts:\d+/);
    }
  });
});
