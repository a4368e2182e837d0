// Types of engines.mjs for its TypeScript users (the console's cross-engine embed journey).
import type { BrowserLauncher } from '@web/test-runner-core';

export const ENGINES: readonly ['chromium', 'firefox', 'webkit'];
export type Engine = (typeof ENGINES)[number];
export function enginesFromEnv(value?: string): Engine[];
export function wtrLauncher(engine: Engine): BrowserLauncher;

/** A function run in the page: plain JSON arguments in, JSON out (it may be async). */
type PageFunction<A extends unknown[], R> = (...args: A) => R | Promise<R>;

export interface EngineDriver {
  engine: Engine;
  /** The browser's name and version. */
  version: string;
  /** The process the browser's own processes descend from (the bench's CPU quota confines the tree). */
  pid: number | undefined;
  /** Opens a URL in the one window (waits for its load event). */
  goto(url: string): Promise<void>;
  /** Runs fn in the top page. */
  evaluate<A extends unknown[], R>(fn: PageFunction<A, R>, ...args: A): Promise<R>;
  /** Runs fn in the page's first iframe whose URL contains `urlPart` (another origin's frame too). */
  evaluateInFrame<A extends unknown[], R>(urlPart: string, fn: PageFunction<A, R>, ...args: A): Promise<R>;
  close(): Promise<void>;
}
/** One page in one engine, driven the same way in all three. */
export function startDriver(engine: Engine): Promise<EngineDriver>;
