/** Child processes of the benchmarks: start with tsx, wait until ready, stop, and read their error lines. */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Child {
  proc: ChildProcess;
  lines: string[];
}

export function startChild(args: string[], env: Record<string, string>): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: serverRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const take = (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean));
  proc.stdout!.on('data', take);
  proc.stderr!.on('data', take);
  return { proc, lines };
}

/**
 * An API node of the real server in production mode on a free loopback port, rate limits off (the benchmarks measure
 * throughput from one address). BENCH_CPU_PROF=<dir>: it writes a V8 CPU profile there on exit (bench/cpu-top.ts).
 */
export async function startApiNode(o: {
  databaseUrl: string;
  dataDir: string;
  jwtSecret: string;
}): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const prof = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_CPU_PROF)]
    : [];
  const child = startChild([...prof, 'src/index.ts'], {
    NODE_ENV: 'production',
    ROLE: 'api',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    DATABASE_URL: o.databaseUrl,
    DATA_DIR: o.dataDir,
    JWT_SECRET: o.jwtSecret,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_DISABLED: 'true',
    // Production needs a way to deliver mail; the benches send none, so nothing ever connects here.
    SMTP_URL: 'smtp://127.0.0.1:1',
  });
  return { child, url };
}

export async function waitReady(url: string, child: Child): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.proc.exitCode !== null) throw new Error(`server exited:\n${child.lines.join('\n')}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`server not ready:\n${child.lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function stopChild(c: Child | undefined): Promise<void> {
  if (!c || c.proc.exitCode !== null) return;
  const exited = new Promise((r) => c.proc.once('exit', r));
  c.proc.kill('SIGTERM');
  await exited;
}

/**
 * Lines the server logged at error level or above (pino JSON: level ≥ 50), and anything on stderr that is not a known
 * warning.
 */
export function errorLines(lines: string[]): string[] {
  return lines.filter((l) => {
    try {
      const j = JSON.parse(l) as { level?: number };
      return (j.level ?? 0) >= 50;
    } catch {
      return /error/i.test(l) && !/Warning|deprecat/i.test(l);
    }
  });
}
