/**
 * Top self-time frames of a V8 CPU profile (node --cpu-prof), e.g. of the API node under bench:api
 * (BENCH_CPU_PROF=<dir>). Prints the heaviest functions and the heaviest packages.
 *
 *   node --import tsx bench/cpu-top.ts <file.cpuprofile | dir (the largest profile in it: the main thread)> [count]
 */
import fs from 'node:fs';
import path from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const arg = process.argv[2];
if (!arg) throw new Error('usage: cpu-top.ts <profile or dir> [count]');
const file = fs.statSync(arg).isDirectory()
  ? fs
      .readdirSync(arg)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => path.join(arg, f))
      .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0]!
  : arg;
const count = Number(process.argv[3] ?? 25);
const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
p.samples.forEach((id, i) => {
  self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
const fn = new Map<string, number>();
const pkg = new Map<string, number>();
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const short = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/packages\//, '');
  fn.set(
    `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`,
    (fn.get(`${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`) ?? 0) + us,
  );
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  const where = m
    ? m[1]!
    : url.includes('/packages/')
      ? 'roomwalk'
      : url.startsWith('node:')
        ? 'node core'
        : functionName.startsWith('(')
          ? functionName
          : 'other';
  pkg.set(where, (pkg.get(where) ?? 0) + us);
}
const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
console.log('\nself time by package:');
for (const [k, v] of [...pkg].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${pct(v)}  ${k}`);
console.log('\nself time by function:');
for (const [k, v] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(`${pct(v)}  ${k}`);
