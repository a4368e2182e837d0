// Test helpers: read which frame and rendition the canvas shows from its pixels.
import type { TourPlayer } from '../src/tour-player/tour-player.component.js';
// @ts-expect-error served by the stub plugin in web-test-runner.config.mjs
import { STUB, TOURS } from '/__stub.js';

export const stub: string = STUB;
export const tours: Record<string, string> = TOURS;

/** Waits (on animation frames, not sleeps) until cond() is truthy. */
export async function until<T>(cond: () => T | Promise<T>, what = 'condition', timeoutMs = 15_000): Promise<T> {
  const start = performance.now();
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (performance.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  }
}

const recorded = new WeakMap<EventTarget, Event[]>();

/** The first event of a type fired since the player was created (or waits for it). */
export async function firstEvent<T extends Event>(target: EventTarget, type: string, timeoutMs = 15_000): Promise<T> {
  const seen = () => recorded.get(target)?.find((e) => e.type === type) as T | undefined;
  return until(seen, `${type} event`, timeoutMs) as Promise<T>;
}

/** All recorded events of a type so far. */
export function eventsOf<T extends Event>(target: EventTarget, type: string): T[] {
  return (recorded.get(target) ?? []).filter((e) => e.type === type) as T[];
}

export function once<T extends Event>(target: EventTarget, type: string, timeoutMs = 15_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no ${type} event`)), timeoutMs);
    target.addEventListener(type, (e) => {
      clearTimeout(t);
      resolve(e as T);
    }, { once: true });
  });
}

export function canvasOf(p: TourPlayer): HTMLCanvasElement {
  return p.shadowRoot!.querySelector('canvas')!;
}

/** Decodes the 16-bit frame barcode (40 px blocks along the top of the source). */
export function readBarcode(canvas: HTMLCanvasElement, source = { width: 1280, height: 720 }): number {
  const ctx = canvas.getContext('2d')!;
  const sx = canvas.width / source.width;
  const sy = canvas.height / source.height;
  const y = Math.floor(20 * sy);
  const row = ctx.getImageData(0, y, Math.ceil(640 * sx), 1).data;
  let n = 0;
  for (let k = 0; k < 16; k++) {
    const x = Math.floor((40 * k + 20) * sx);
    const lum = row[x * 4]! * 0.3 + row[x * 4 + 1]! * 0.59 + row[x * 4 + 2]! * 0.11;
    if (lum > 128) n |= 1 << k;
  }
  return n;
}

/** True when the low rendition's white corner box is on the canvas. */
export function showsLowRendition(canvas: HTMLCanvasElement, source = { width: 1280, height: 720 }): boolean {
  const ctx = canvas.getContext('2d')!;
  // The box is 40x40 at the low size, i.e. 80x80 in source pixels, bottom-right.
  const x = Math.floor(((source.width - 40) / source.width) * canvas.width);
  const y = Math.floor(((source.height - 40) / source.height) * canvas.height);
  const d = ctx.getImageData(x - 2, y - 2, 5, 5).data;
  let white = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i]! > 225 && d[i + 1]! > 225 && d[i + 2]! > 225) white++;
  return white >= 20;
}

export async function resetStub(): Promise<void> {
  await fetch(`${stub}/__reset`, { method: 'POST' });
}

export async function stubLog(): Promise<{ op: string; variables: Record<string, unknown>; authorization: string | null }[]> {
  return (await fetch(`${stub}/__log`)).json();
}

export async function makePlayer(attrs: Record<string, string | boolean>, props: Partial<TourPlayer> = {}, size = { width: 1000, height: 600 }): Promise<TourPlayer> {
  const p = document.createElement('tour-player');
  p.style.width = `${size.width}px`;
  p.style.height = `${size.height}px`;
  p.style.display = 'block';
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false) continue;
    p.setAttribute(k, v === true ? '' : v);
  }
  Object.assign(p, props);
  const log: Event[] = [];
  recorded.set(p, log);
  for (const t of ['tour-ready', 'tour-error', 'tour-status-change', 'tour-frame-change', 'tour-marker-change', 'tour-notice']) p.addEventListener(t, (e) => log.push(e));
  document.body.append(p);
  return p;
}

export function cleanup(): void {
  for (const el of document.querySelectorAll('tour-player, iframe')) el.remove();
}

export function shadowText(p: HTMLElement): string {
  return p.shadowRoot?.textContent?.replace(/\s+/g, ' ') ?? '';
}
