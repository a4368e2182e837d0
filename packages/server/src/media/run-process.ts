/** Runs ffmpeg/ffprobe as child processes with hard bounds: wall time, stall time, output size, memory, abort. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';

export interface RunOptions {
  /** Kill the process after this many milliseconds in total. */
  timeoutMs: number;
  /** Kill the process when stdout+stderr exceed this many bytes (untrusted input can make ffprobe talk a lot). */
  maxOutputBytes: number;
  /**
   * Address-space limit in bytes, applied with prlimit(1) when it exists (a hostile file cannot eat the machine's
   * memory).
   */
  maxMemoryBytes?: number;
  signal?: AbortSignal;
  /**
   * Called with each stdout chunk as it arrives; return false to stop the process early (the run then counts as
   * stopped, not failed).
   */
  onStdout?: (chunk: string) => boolean | void;
  /** Keep stdout in the result (default true). Streaming consumers turn it off. */
  keepStdout?: boolean;
  /** Kill the process when `touch()` was not called for this many milliseconds (no progress = stalled). */
  stallMs?: number;
  /** Give the process a stdin pipe (RunningProcess.stdin) instead of none. */
  stdin?: boolean;
  /**
   * Raw frames on stdout: the caller reads RunningProcess.stdout as bytes. onStdout, keepStdout and the output
   * limit then apply to stderr only.
   */
  rawStdout?: boolean;
  /** A second output pipe on file descriptor 3 (ffmpeg's `pipe:3`), read as bytes from RunningProcess.fd3. */
  fd3?: boolean;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Why the process was stopped by us, if it was. */
  stopped: 'timeout' | 'stall' | 'output' | 'abort' | 'consumer' | null;
}

export interface RunningProcess {
  done: Promise<RunResult>;
  /** Resets the stall timer; call it when the process shows progress. */
  touch(): void;
  /** With `stdin: true`: the process's standard input. */
  stdin: Writable | null;
  /** With `rawStdout: true`: the process's standard output, as bytes. */
  stdout: Readable | null;
  /** With `fd3: true`: the process's file descriptor 3, as bytes. */
  fd3: Readable | null;
}

const PRLIMIT = '/usr/bin/prlimit';
const hasPrlimit = existsSync(PRLIMIT);

/** Starts `command args` and resolves when it exits; never rejects for the child's own failures. */
export function runProcess(command: string, args: readonly string[], opts: RunOptions): RunningProcess {
  let file = command;
  let argv = [...args];
  if (opts.maxMemoryBytes && hasPrlimit) {
    argv = [`--as=${opts.maxMemoryBytes}`, '--', command, ...args];
    file = PRLIMIT;
  }
  let lastTouch = Date.now();
  const touch = () => {
    lastTouch = Date.now();
  };

  let spawned!: ChildProcess;
  const done = new Promise<RunResult>((resolve, reject) => {
    const child = spawn(file, argv, {
      stdio: [opts.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe', ...(opts.fd3 ? (['pipe'] as const) : [])],
      env: minimalEnv(),
    });
    spawned = child;
    // A process that exits early closes its stdin; the writer learns it from `done`, not from an EPIPE crash.
    child.stdin?.on('error', () => undefined);
    const keepStdout = opts.keepStdout ?? true;
    let stdout = '';
    let stderr = '';
    let outBytes = 0;
    let stopped: RunResult['stopped'] = null;
    const stop = (why: NonNullable<RunResult['stopped']>) => {
      if (stopped) return;
      stopped = why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
    const stallTimer = opts.stallMs
      ? setInterval(
          () => {
            if (Date.now() - lastTouch > opts.stallMs!) stop('stall');
          },
          Math.min(1000, opts.stallMs),
        )
      : null;
    const onAbort = () => stop('abort');
    if (opts.signal) {
      if (opts.signal.aborted) queueMicrotask(onAbort);
      else opts.signal.addEventListener('abort', onAbort, { once: true });
    }
    const count = (n: number) => {
      outBytes += n;
      if (outBytes > opts.maxOutputBytes) stop('output');
    };
    child.stderr!.setEncoding('utf8');
    if (!opts.rawStdout) {
      child.stdout!.setEncoding('utf8');
      child.stdout!.on('data', (chunk: string) => {
        count(chunk.length);
        if (stopped) return;
        if (keepStdout) stdout += chunk;
        if (opts.onStdout && opts.onStdout(chunk) === false) stop('consumer');
      });
    }
    child.stderr!.on('data', (chunk: string) => {
      count(chunk.length);
      // Keep only the tail: the last lines carry the reason of a failure.
      stderr = (stderr + chunk).slice(-16_384);
    });
    child.on('error', (err) => {
      cleanup();
      reject(err);
    });
    child.on('close', (code) => {
      cleanup();
      resolve({ code, stdout, stderr, stopped });
    });
    function cleanup() {
      clearTimeout(timer);
      if (stallTimer) clearInterval(stallTimer);
      opts.signal?.removeEventListener('abort', onAbort);
    }
  });
  return {
    done,
    touch,
    stdin: opts.stdin ? (spawned?.stdin ?? null) : null,
    stdout: opts.rawStdout ? (spawned?.stdout ?? null) : null,
    fd3: opts.fd3 ? ((spawned?.stdio[3] as Readable | undefined) ?? null) : null,
  };
}

/** ffmpeg needs no secrets from our environment; pass only what locale and temp handling use. */
function minimalEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ['PATH', 'LANG', 'LC_ALL', 'TMPDIR', 'HOME']) if (process.env[key]) env[key] = process.env[key];
  return env;
}

/** The last lines of a process's error output (where the reason of a failure is), for messages and logs. */
export function stderrTail(stderr: string): string {
  return stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 500);
}
