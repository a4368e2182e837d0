import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * A test file needs a fresh module graph and jsdom of its own when it replaces modules or globals (`vi.mock`,
 * `vi.stubGlobal`, `vi.stubEnv`), fakes the clock, or sets one of the console's module-level stores (the original
 * that follows, the session): shared with the next file in the same worker, what it changed would still be there.
 */
const NEEDS_ISOLATION =
  /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(|original-follows-state|session-store|tour-dialog-test-support/;

/** The console's test files that need isolation (NEEDS_ISOLATION), relative to this folder; read at each run. */
export function isolatedTestFiles(): string[] {
  return readdirSync(path.join(here, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.test\.tsx?$/.test(f))
    .map((f) => `src/${f.split(path.sep).join('/')}`)
    .filter((f) => NEEDS_ISOLATION.test(readFileSync(path.join(here, f), 'utf8')))
    .sort();
}

/**
 * The console's jsdom project. The files that change nothing shared run `isolate: false` (one jsdom and one module
 * graph per worker for all of them: 58 files took 72 s with a fresh environment each, 60 s of it making jsdoms; 17 s
 * shared); the others in `console-isolated` (vitest.isolated.config.ts), each in its own.
 */
export function consoleProject(name: string, files: { include: string[]; exclude: string[] }, isolate: boolean) {
  return defineProject({
    plugins: [react()],
    test: {
      name,
      include: files.include,
      exclude: files.exclude,
      environment: 'jsdom',
      setupFiles: ['./src/test/setup.ts'],
      testTimeout: 30_000,
      isolate,
    },
  });
}

export default consoleProject('console', { include: ['src/**/*.test.{ts,tsx}'], exclude: isolatedTestFiles() }, false);
