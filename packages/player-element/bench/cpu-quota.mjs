// The engines bench's honest phone pass: the whole browser (every process it started) confined to a CPU quota
// through the cgroup v1 `cpu` controller (/sys/fs/cgroup/cpu: a group of our own, cpu.cfs_quota_us against
// cpu.cfs_period_us, each process id written to cgroup.procs; processes they start later follow). CDP's CPU
// throttling slows a page's main thread but not its workers' decoding; a quota slows everything. Where the controller
// is missing (or not writable) the pass runs the browser beside busy loops instead, and says so.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = '/sys/fs/cgroup/cpu';

/** Whether a CPU quota can be set here (cgroup v1 cpu controller present and writable). */
export function quotaAvailable() {
  if (!existsSync(join(ROOT, 'cpu.cfs_quota_us'))) return false;
  try {
    const probe = join(ROOT, `roomwalk-probe-${process.pid}`);
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

/** `pid` and all its descendants (from /proc's parent ids). */
function processTree(pid) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command may hold spaces and parentheses: the fields after its last ')' are state, then parent id.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      /* gone meanwhile */
    }
  }
  const out = [];
  const walk = (p) => {
    out.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return out;
}

/**
 * Confines the process tree of `pid` to `cores` cores' worth of CPU time (0.5: half of one core). Returns
 * { moved, release(): moves them back to the root group and removes ours }. Call again (confine.more) after new
 * processes appear outside the tree's own forks.
 */
export function confine(pid, cores) {
  const group = join(ROOT, `roomwalk-bench-${process.pid}`);
  if (!existsSync(group)) mkdirSync(group);
  const period = Number(readFileSync(join(ROOT, 'cpu.cfs_period_us'), 'utf8')) || 100000;
  writeFileSync(join(group, 'cpu.cfs_period_us'), String(period));
  writeFileSync(join(group, 'cpu.cfs_quota_us'), String(Math.round(period * cores)));
  const move = () => {
    let moved = 0;
    for (const p of processTree(pid)) {
      try {
        writeFileSync(join(group, 'cgroup.procs'), String(p));
        moved++;
      } catch {
        /* exited */
      }
    }
    return moved;
  };
  const moved = move();
  return {
    moved,
    more: move,
    quota: `${Math.round(period * cores)} us per ${period} us`,
    release() {
      try {
        for (const p of readFileSync(join(group, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean))
          writeFileSync(join(ROOT, 'cgroup.procs'), p);
        rmdirSync(group);
      } catch {
        /* the group is removed once its processes are gone */
      }
    },
  };
}
