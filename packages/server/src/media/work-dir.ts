/**
 * Temporary work folders of processing attempts, in the system's temporary folder. A folder is named after the process
 * that made it (`roomwalk-work-<pid>-<kind>-XXXXXX`), so what a killed or stopped process left behind can be told from
 * what a live one is using:
 * - a finished attempt removes its own folder (the caller's `finally`);
 * - a process that exits (SIGTERM drains, then `process.exit`) removes the folders it still has, synchronously;
 * - a worker starting sweeps folders of processes that no longer run (SIGKILL, OOM), and any older than `maxAgeMs`
 *   (no attempt runs longer than its allowance; this also covers a dead process's id reused by another).
 */
import { rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const PREFIX = 'roomwalk-work-';
const live = new Set<string>();
let exitHookInstalled = false;

/** Makes a work folder for this process; `remove()` deletes it (safe to call twice). */
export async function makeWorkDir(kind: string): Promise<{ path: string; remove: () => Promise<void> }> {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const dir of live) rmSync(dir, { recursive: true, force: true });
    });
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `${PREFIX}${process.pid}-${kind}-`));
  live.add(dir);
  return {
    path: dir,
    remove: async () => {
      await fs.rm(dir, { recursive: true, force: true });
      live.delete(dir);
    },
  };
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes work folders no running attempt uses; answers how many. */
export async function sweepWorkDirs(maxAgeMs: number, now = Date.now()): Promise<number> {
  const tmp = os.tmpdir();
  const names = await fs.readdir(tmp).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const m = name.startsWith(PREFIX) ? /^(\d+)-/.exec(name.slice(PREFIX.length)) : null;
    if (!m) continue;
    const dir = path.join(tmp, name);
    const pid = Number(m[1]);
    // This process's own folders are live exactly when it still lists them (a restarted container reuses its pid).
    const running = pid === process.pid ? live.has(dir) : processRuns(pid);
    const stat = await fs.stat(dir).catch(() => null);
    if (!stat) continue;
    if (running && now - stat.mtimeMs <= maxAgeMs) continue;
    await fs.rm(dir, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
