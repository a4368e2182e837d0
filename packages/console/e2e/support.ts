/** Journey helpers: screenshots at phone and desktop widths, axe checks, the development outbox. */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ARTIFACTS = path.resolve(here, '../test-artifacts');
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** Checks the screen with axe (no serious or critical violation), then saves it at phone and desktop widths. */
export async function screen(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  // Dialog and alert transitions must end first, or axe measures half-faded text.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  await checkA11y(page, name);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const original = page.viewportSize() ?? DESKTOP;
  for (const [label, size] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(original);
}

export async function checkA11y(page: Page, name: string): Promise<void> {
  // Evaluated through the DevTools protocol, not as an inline <script>: the server's CSP (script-src 'self') stays on.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${axeSource};void 0`);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => `${JSON.stringify(n.target)} ${JSON.stringify((n as unknown as { any?: Array<{ data?: unknown }> }).any?.[0]?.data ?? "")}`).slice(0, 3) }));
  });
  expect(violations, `axe violations on ${name}`).toEqual([]);
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
        found = mails.filter((m) => m.to_address.toLowerCase() === to.toLowerCase()).flatMap((m) => m.links).find((l) => pattern.test(l));
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
export const dialog = (page: Page, label: string) => page.locator(`sl-dialog[open][label="${label.replace(/"/g, '\\"')}"]`);
