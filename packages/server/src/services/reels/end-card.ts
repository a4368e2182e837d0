/**
 * The reel's end card (a calm colour from the seed, the agent's logo, then their lines fitted between the margins)
 * and the text the reel draws: the caption font and drawtext's escaping, which the segments' captions share.
 */
import fs from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';
import PDFDocument from 'pdfkit';
import { END_CARD_SECONDS, REEL_FPS, REEL_SIZE, rng } from './reel-plan.js';

/** Who the end card names: the agent, their contact line, their company and logo (a local file). */
export interface ReelAgent {
  name: string | null;
  contact: string | null;
  company: string | null;
  logoFile: string | null;
}

const FONT_MISSING_TEXT = 'No caption font found: install fonts-dejavu-core (or set REEL_FONT_FILE).';

/** A caption font from the system: REEL_FONT_FILE, fontconfig's DejaVu Sans Bold, or Debian's fixed path. */
export function findFont(env: Record<string, string | undefined> = process.env): string {
  const candidates: string[] = [];
  if (env.REEL_FONT_FILE) candidates.push(env.REEL_FONT_FILE);
  try {
    candidates.push(
      execFileSync('fc-match', ['-f', '%{file}', 'DejaVu Sans:bold'], { encoding: 'utf8', timeout: 5000 }).trim(),
    );
  } catch {
    // fontconfig not installed: try the fixed path
  }
  candidates.push('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf');
  const found = candidates.find((f) => f && /\.(ttf|otf)$/i.test(f) && existsSync(f));
  if (!found) throw new Error(FONT_MISSING_TEXT);
  return found;
}

/** A path or text escaped for a drawtext option. */
export const esc = (s: string) => s.replace(/[\\:']/g, (c) => `\\${c}`);

/**
 * The end card as ffmpeg inputs (its colour source, the logo) numbered from `firstInput`, and the filters that make
 * `[end]` from them.
 */
export async function endCardGraph(
  agent: ReelAgent,
  font: string,
  workDir: string,
  seed: number,
  firstInput: number,
): Promise<{ inputs: string[]; filters: string[] }> {
  const { width: W, height: H } = REEL_SIZE;
  const hue = Math.floor(rng(seed ^ 0x5eed)() * 360);
  const inputs = [
    '-f',
    'lavfi',
    '-i',
    `color=c=0x${hslHex(hue, 0.35, 0.16)}:s=${W}x${H}:r=${REEL_FPS}:d=${END_CARD_SECONDS}`,
  ];
  const filters: string[] = [];
  let chain = `[${firstInput}:v]setsar=1`;
  if (agent.logoFile) {
    const logoPng = path.join(workDir, 'logo.png');
    await sharp(agent.logoFile, { limitInputPixels: 50_000_000 })
      .resize(480, 480, { fit: 'inside', withoutEnlargement: false })
      .png()
      .toFile(logoPng);
    inputs.push('-i', logoPng);
    filters.push(`[${firstInput + 1}:v]format=rgba[logo]`);
    chain += `[bg];[bg][logo]overlay=x=(W-w)/2:y=H*0.22`;
  }
  chain += await endCardText(agent, font, workDir);
  filters.push(`${chain},format=yuv420p[end]`);
  return { inputs, filters };
}

/** Side margin of the end card's lines, each side. */
export const END_CARD_MARGIN = 72;
const CARD_SIZES = { name: 76, line: 56, min: 30 } as const;

/** Width in pixels of `text` drawn in `font` at `size` px (the font's advance widths, as drawtext lays it out). */
export function textWidth(text: string, font: string, size: number): number {
  const doc = new PDFDocument({ autoFirstPage: false });
  return doc.font(font).fontSize(size).widthOfString(text);
}

/**
 * The end card's lines laid out to fit the card between its margins: the name, the contact (split into its parts,
 * number and email, when together they do not fit), the company; each at its size, smaller when needed, and cut
 * with an ellipsis only when even the smallest size does not fit.
 */
export function fitEndCardLines(
  agent: Pick<ReelAgent, 'name' | 'contact' | 'company'>,
  font: string,
  width: number = REEL_SIZE.width,
): Array<{ text: string; size: number }> {
  const room = width - 2 * END_CARD_MARGIN;
  const fit = (text: string, size: number): { text: string; size: number } => {
    let s = size;
    while (s > CARD_SIZES.min && textWidth(text, font, s) > room) s -= 2;
    let t = text;
    while (t.length > 1 && textWidth(t, font, s) > room) t = `${t.slice(0, -2).trimEnd()}…`;
    return { text: t, size: s };
  };
  const clean = (l: string | null) =>
    l
      ?.replace(/[\r\n\t]+/g, ' ')
      .trim()
      .slice(0, 120) || null;
  const out: Array<{ text: string; size: number }> = [];
  const name = clean(agent.name);
  if (name) out.push(fit(name, CARD_SIZES.name));
  const contact = clean(agent.contact);
  if (contact) {
    const parts = contact.split(/\s+·\s+/).filter(Boolean);
    if (parts.length > 1 && textWidth(contact, font, CARD_SIZES.line) > room)
      out.push(...parts.map((p) => fit(p, CARD_SIZES.line)));
    else out.push(fit(contact, CARD_SIZES.line));
  }
  const company = clean(agent.company);
  if (company) out.push(fit(company, CARD_SIZES.line));
  return out;
}

/** drawtext filters for the end card's lines, centred, one below the other from 55 % of the height. */
export async function endCardText(
  agent: ReelAgent,
  font: string,
  workDir: string,
  size: { width: number; height: number } = REEL_SIZE,
): Promise<string> {
  let chain = '';
  let y = Math.round(size.height * 0.55);
  for (const [k, line] of fitEndCardLines(agent, font, size.width).entries()) {
    const file = path.join(workDir, `card-${k}.txt`);
    await fs.writeFile(file, line.text);
    chain += `,drawtext=fontfile='${esc(font)}':textfile='${esc(file)}':fontcolor=white:fontsize=${line.size}:x=(w-text_w)/2:y=${y}`;
    y += Math.round(line.size * 1.6);
  }
  return chain;
}

function hslHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(255 * c)
      .toString(16)
      .padStart(2, '0');
  };
  return `${f(0)}${f(8)}${f(4)}`;
}
