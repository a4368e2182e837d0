/**
 * Child processes for multi-process tests (two API nodes, killed workers, scale-out): one way to start a TypeScript
 * fixture under `node --import tsx`, wait for the line that says it is ready, keep its output for failure messages,
 * and stop it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Child<T> {
  proc: ChildProcess;
  /** Every stdout line, and stderr chunks prefixed with `stderr: `, in arrival order. */
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What `isReady` returned for the first line it accepted. */
  ready: Promise<T>;
}

/**
 * Starts `command args` and resolves `ready` with the first stdout line `isReady` maps to a value; rejects it with
 * the collected output if the process exits first.
 */
export function startProcess<T>(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  isReady: (line: string) => T | undefined,
  cwd = serverRoot,
): Child<T> {
  const proc = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  proc.stderr!.on('data', (d: Buffer) => output.push(`stderr: ${d.toString()}`));
  const ready = new Promise<T>((resolve, reject) => {
    let buffered = '';
    proc.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (!line) continue;
        output.push(line);
        const value = isReady(line);
        if (value !== undefined) resolve(value);
      }
    });
    void exited.then(({ code, signal }) =>
      reject(
        new Error(
          `${path.basename(args.at(-1) ?? command)} exited (${code ?? signal}): ${output.join('\n').slice(-3000)}`,
        ),
      ),
    );
  });
  // A process that dies after it was ready must not leave an unhandled rejection behind.
  ready.catch(() => undefined);
  return { proc, output, exited, ready };
}

/** Starts a test fixture script (relative to test/fixtures) under tsx with the test's environment plus `env`. */
export function startFixture<T>(
  fixture: string,
  env: Record<string, string>,
  isReady: (line: string) => T | undefined,
): Child<T> {
  return startProcess(
    process.execPath,
    ['--import', 'tsx', path.join(serverRoot, 'test/fixtures', fixture)],
    { ...process.env, ...env },
    isReady,
  );
}

/** The `{ url, ... }` JSON line the node fixtures print once listening (every `required` key set), else undefined. */
export function jsonLine<T extends object>(line: string, ...required: Array<keyof T & string>): T | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const m = JSON.parse(line) as T;
    return required.every((k) => m[k]) ? m : undefined;
  } catch {
    return undefined; // a log line
  }
}

/** Sends `signal` and waits for the exit; a process already gone is fine. */
export async function stopProcess(proc: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill(signal);
  await exited;
}

/** A TCP port free on loopback right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net
      .createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
  });
}
