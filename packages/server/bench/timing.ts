/** Wall and CPU time of a piece of work, counting the child processes (ffmpeg) it ran. Linux only. */
import { readFile } from 'node:fs/promises';

export interface Timing {
  wall: number;
  cpu: number;
}

/** Seconds of CPU used by reaped child processes (cutime + cstime) plus this process. */
async function cpuSeconds(): Promise<number> {
  const stat = await readFile('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields after the command name start at field 3 (state); cutime and cstime are fields 16 and 17.
  const ticks = Number(fields[16 - 3]) + Number(fields[17 - 3]);
  const own = process.cpuUsage();
  return ticks / 100 + (own.user + own.system) / 1e6;
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ timing: Timing; value: T }> {
  const c0 = await cpuSeconds();
  const t0 = performance.now();
  const value = await fn();
  return { timing: { wall: (performance.now() - t0) / 1000, cpu: (await cpuSeconds()) - c0 }, value };
}
