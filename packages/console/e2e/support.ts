/** Journey helpers: screenshots at phone and desktop widths, axe checks, the development outbox. */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ARTIFACTS = path.resolve(here, '../test-artifacts');
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** Checks the screen with axe (no serious or critical violation), then saves it at phone and desktop widths. */
export async function screen(page: Page, name: string): Promise<void> {
  // Settled, within reason: a tour's player on a busy machine may still be fetching its clips one after another, and
  // then the network never rests for Playwright's 500 ms (an unbounded wait hung a journey until its timeout).
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  // Dialog and alert transitions must end first, or axe measures half-faded text. Not a spinner's endless animation:
  // its `finished` never comes (a tour still loading on a busy machine shows one).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  await checkA11y(page, name);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  // The Playwright project (playwright.config.ts) decides the device: 'phone' is a 390x844 touch phone (isMobile,
  // hasTouch), 'desktop' 1280x800; each saves its own screenshot. Outside those projects, both widths by resizing.
  const project = test.info().project.name;
  if (project === 'phone' || project === 'desktop') {
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${project}.png`), fullPage: true });
    return;
  }
  const original = page.viewportSize() ?? DESKTOP;
  for (const [label, size] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(original);
}

/** Whether the running project is the phone (390x844, touch). */
export const onPhone = (): boolean => test.info().project.name === 'phone';

export async function checkA11y(page: Page, name: string): Promise<void> {
  // Evaluated through the DevTools protocol, not as an inline <script>: the server's CSP (script-src 'self') stays on.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${axeSource};void 0`);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: unknown,
            opts: unknown,
          ) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> }>;
        };
      }
    ).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        targets: v.nodes
          .map(
            (n) =>
              `${JSON.stringify(n.target)} ${JSON.stringify((n as unknown as { any?: Array<{ data?: unknown }> }).any?.[0]?.data ?? '')}`,
          )
          .slice(0, 3),
      }));
  });
  expect(violations, `axe violations on ${name}`).toEqual([]);
  await checkShadowButtonContrast(page, name);
}

/**
 * axe cannot decide the contrast of text inside Shoelace's shadow roots (it marks those buttons "incomplete"), so the
 * visible, enabled buttons' [part=base] are measured here: text colour against the first opaque background behind it
 * (through shadow hosts), WCAG AA 4.5:1 for normal text and 3:1 for large text (24 px, or 18.66 px bold).
 */
export async function checkShadowButtonContrast(page: Page, name: string): Promise<void> {
  const failures = await page.evaluate(() => {
    const rgba = (c: string): [number, number, number, number] => {
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) return [0, 0, 0, 0];
      const p = m[1]!
        .split(/[ ,/]+/)
        .filter(Boolean)
        .map(Number);
      return [p[0]!, p[1]!, p[2]!, p[3] ?? 1];
    };
    const lum = ([r, g, b]: number[]) => {
      const f = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
    };
    const parentOf = (el: Element): Element | null => el.parentElement ?? (el.getRootNode() as ShadowRoot).host ?? null;
    const backdrop = (el: Element): number[] => {
      // Composites translucent layers over the first opaque one (white at the top of the page).
      const layers: number[][] = [];
      for (let e: Element | null = el; e; e = parentOf(e)) {
        const c = rgba(getComputedStyle(e).backgroundColor);
        if (c[3] > 0) layers.push(c);
        if (c[3] >= 1) break;
      }
      let base = [255, 255, 255];
      for (const [r, g, b, a] of layers.reverse())
        base = [r! * a! + base[0]! * (1 - a!), g! * a! + base[1]! * (1 - a!), b! * a! + base[2]! * (1 - a!)];
      return base;
    };
    const out: string[] = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const host of Array.from(root.querySelectorAll('*'))) {
        if (host.shadowRoot) walk(host.shadowRoot);
        if (host.localName !== 'sl-button' || (host as HTMLElement & { disabled?: boolean }).disabled) continue;
        const base = host.shadowRoot?.querySelector('[part~="base"]');
        if (!base) continue;
        const box = base.getBoundingClientRect();
        const style = getComputedStyle(base);
        if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || !(host.textContent ?? '').trim())
          continue;
        const fg = rgba(style.color);
        const bg = backdrop(base);
        const fgOnBg = [
          fg[0] * fg[3] + bg[0]! * (1 - fg[3]),
          fg[1] * fg[3] + bg[1]! * (1 - fg[3]),
          fg[2] * fg[3] + bg[2]! * (1 - fg[3]),
        ];
        const [a, b] = [lum(fgOnBg), lum(bg)].sort((x, y) => y - x) as [number, number];
        const ratio = (a + 0.05) / (b + 0.05);
        const size = parseFloat(style.fontSize);
        const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
        if (ratio < (large ? 3 : 4.5))
          out.push(
            `"${(host.textContent ?? '').trim().slice(0, 40)}" ${style.color} on rgb(${bg.map(Math.round).join(', ')}): ${ratio.toFixed(2)}:1`,
          );
      }
    };
    walk(document);
    return out;
  });
  expect(failures, `shadow-DOM button contrast on ${name}`).toEqual([]);
}

export interface OutboxMail {
  to_address: string;
  subject: string;
  text_body: string;
  links: string[];
}

/** The newest mail to an address whose links include one matching the pattern. */
export async function mailLink(page: Page, to: string, pattern: RegExp): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await page.request.get('/dev/outbox.json');
        const mails = (await res.json()) as OutboxMail[];
        found = mails
          .filter((m) => m.to_address.toLowerCase() === to.toLowerCase())
          .flatMap((m) => m.links)
          .find((l) => pattern.test(l));
        return found;
      },
      { message: `mail to ${to} with a link matching ${pattern}`, timeout: 15_000 },
    )
    .toBeTruthy();
  return found!;
}

/** The path and query of an absolute link, to open it against the test server. */
export const pathOf = (link: string): string => {
  const u = new URL(link);
  return `${u.pathname}${u.search}`;
};

/**
 * An open dialog by its label. The Shoelace host, not the role=dialog panel: the panel lives in the shadow root and
 * the dialog's content is slotted light DOM, so locators chained from the panel would not reach it.
 */
export const dialog = (page: Page, label: string) =>
  page.locator(`sl-dialog[open][label="${label.replace(/"/g, '\\"')}"]`);
