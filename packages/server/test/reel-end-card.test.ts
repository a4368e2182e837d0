/**
 * The reel's end card fits the agent's lines between its margins: a long contact line ('+27 … · a long email') was
 * cut at both sides of the 1080 px card. Measured with the real font and checked on a frame rendered by ffmpeg.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { END_CARD_MARGIN, endCardText, findFont, fitEndCardLines, textWidth } from '../src/services/reels/end-card.js';
import { REEL_SIZE } from '../src/services/reels/reel-plan.js';
import { runFfmpeg } from '../src/services/ai/ffmpeg.js';

const AGENT = {
  name: 'Lindiwe van der Merwe-Abrahams',
  contact: '+27 82 555 1234  ·  lindiwe.vandermerwe@seaside-realty-group.co.za',
  company: 'Seaside Realty Group (Pty) Ltd — Atlantic Seaboard',
  logoFile: null,
};

describe('reel end card', () => {
  let work: string;
  const font = findFont();
  beforeAll(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-endcard-'));
  });
  afterAll(async () => {
    await fs.rm(work, { recursive: true, force: true });
  });

  it('lays every line out inside the margins, the contact split into number and email', () => {
    // The line as it was drawn (56 px) is wider than the card.
    expect(textWidth(AGENT.contact, font, 56)).toBeGreaterThan(REEL_SIZE.width);
    const lines = fitEndCardLines(AGENT, font);
    expect(lines.map((l) => l.text)).toEqual([
      'Lindiwe van der Merwe-Abrahams',
      '+27 82 555 1234',
      'lindiwe.vandermerwe@seaside-realty-group.co.za',
      'Seaside Realty Group (Pty) Ltd — Atlantic Seaboard',
    ]);
    for (const l of lines)
      expect(textWidth(l.text, font, l.size)).toBeLessThanOrEqual(REEL_SIZE.width - 2 * END_CARD_MARGIN);
    // A short contact stays one line at the usual size; an absurd one is cut, never drawn past the margins.
    expect(fitEndCardLines({ name: null, contact: '+27 82 555 1234  ·  a@b.co', company: null }, font)).toEqual([
      { text: '+27 82 555 1234  ·  a@b.co', size: 56 },
    ]);
    const long = fitEndCardLines({ name: 'x'.repeat(120), contact: null, company: null }, font)[0]!;
    expect(long.text.endsWith('…')).toBe(true);
    expect(textWidth(long.text, font, long.size)).toBeLessThanOrEqual(REEL_SIZE.width - 2 * END_CARD_MARGIN);
  });

  it('draws no text in the side margins of a rendered card', async () => {
    const chain = await endCardText(AGENT, font, work);
    const png = path.join(work, 'card.png');
    await runFfmpeg(
      [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `color=c=0x1a2030:s=${REEL_SIZE.width}x${REEL_SIZE.height}:d=0.1`,
        '-vf',
        `setsar=1${chain}`,
        '-frames:v',
        '1',
        png,
      ],
      {
        timeoutMs: 60_000,
      },
    );
    const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    let inMargins = 0;
    let text = 0;
    for (let y = 0; y < info.height; y++) {
      for (let x = 0; x < info.width; x++) {
        if (data[y * info.width + x]! < 128) continue;
        text++;
        if (x < END_CARD_MARGIN / 2 || x >= info.width - END_CARD_MARGIN / 2) inMargins++;
      }
    }
    expect(text).toBeGreaterThan(5000);
    expect(inMargins).toBe(0);
  });
});
