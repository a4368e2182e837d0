// Types of engines.mjs for its TypeScript users (the console's cross-engine embed journey).
import type { BrowserLauncher } from '@web/test-runner-core';
import type { Browser, LaunchOptions } from 'puppeteer-core';

export const CHROMIUM_PATH: string;
export const ENGINES: readonly ['chromium', 'firefox', 'webkit'];
export type Engine = (typeof ENGINES)[number];
export const CHROMIUM_ARGS: string[];
export function enginesFromEnv(value?: string): Engine[];
export function puppeteerOptions(engine: 'chromium' | 'firefox'): LaunchOptions;
export function launchPuppeteer(engine: 'chromium' | 'firefox'): Promise<Browser>;
export function wtrLauncher(engine: Engine): BrowserLauncher;

export interface WebKitSession {
  version: string;
  call(method: string, path: string, body?: unknown): Promise<any>;
  navigate(url: string): Promise<void>;
  /** Runs a function body in the current browsing context (it may await); its arguments are `arguments[0…]`. */
  execute<T = unknown>(script: string, args?: unknown[]): Promise<T>;
  close(): Promise<void>;
}
export function startWebKitSession(): Promise<WebKitSession>;
