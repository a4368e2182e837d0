/**
 * One small driver over the three engines a visitor arrives with, each from Debian's packages: Chromium and Firefox
 * ESR through puppeteer-core (Firefox over WebDriver BiDi), WebKitGTK through WebKitWebDriver. Playwright cannot drive
 * Debian's Firefox or WebKitGTK (its own builds cannot be fetched here), so the cross-engine embed journey
 * (embed-engines.spec.ts) drives pages through this instead. The launch settings are the player's browser tests' own
 * (packages/player-element/test/engines.mjs).
 */
import { type Engine, launchPuppeteer, startWebKitSession } from '../../player-element/test/engines.mjs';

/** A function run in the page: it gets plain JSON arguments and returns JSON (it may be async). */
type PageFunction<A extends unknown[], R> = (...args: A) => R | Promise<R>;

export interface EngineDriver {
  engine: Engine;
  /** The browser's name and version. */
  version: string;
  /** Opens a URL in the one window (waits for its load event). */
  goto(url: string): Promise<void>;
  /** Runs fn in the top page. */
  evaluate<A extends unknown[], R>(fn: PageFunction<A, R>, ...args: A): Promise<R>;
  /** Runs fn in the page's first iframe whose URL contains `urlPart` (another origin's frame too). */
  evaluateInFrame<A extends unknown[], R>(urlPart: string, fn: PageFunction<A, R>, ...args: A): Promise<R>;
  close(): Promise<void>;
}

export async function startDriver(engine: Engine): Promise<EngineDriver> {
  if (engine === 'webkit') {
    const wk = await startWebKitSession();
    const run = <R>(fn: PageFunction<unknown[], R>, args: unknown[]) => wk.execute<R>(`return (${fn.toString()})(...arguments);`, args);
    return {
      engine,
      version: `WebKitGTK ${wk.version}`,
      goto: (url) => wk.navigate(url),
      evaluate: (fn, ...args) => run(fn as PageFunction<unknown[], never>, args),
      async evaluateInFrame(urlPart, fn, ...args) {
        // WebDriver reaches a frame through its <iframe> element: find it by src, switch in, run, switch back.
        const element = await wk.call('POST', '/element', { using: 'css selector', value: `iframe[src*=${JSON.stringify(urlPart)}]` });
        await wk.call('POST', '/frame', { id: element });
        try {
          return await run(fn as PageFunction<unknown[], never>, args);
        } finally {
          await wk.call('POST', '/frame/parent', {});
        }
      },
      close: () => wk.close(),
    };
  }
  const browser = await launchPuppeteer(engine);
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  return {
    engine,
    version: await browser.version(),
    goto: async (url) => {
      await page.goto(url);
    },
    evaluate: (fn, ...args) => page.evaluate(fn as (...a: unknown[]) => never, ...args),
    async evaluateInFrame(urlPart, fn, ...args) {
      const frame = page.frames().find((f) => f.url().includes(urlPart));
      if (!frame) throw new Error(`no frame at ${urlPart} yet`);
      return frame.evaluate(fn as (...a: unknown[]) => never, ...args);
    },
    close: () => browser.close(),
  };
}
