// Prints the gzip size of the JavaScript the browser loads before any lazy route: the entry script and the
// chunks index.html preloads. Fails the build above the budget.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const BUDGET_KB = 200;
const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = new Set([...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]));
const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = (n) => (n / 1024).toFixed(1);

let initialBytes = 0;
for (const file of initial) initialBytes += gz(file);
const all = fs.readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
let allBytes = 0;
for (const f of all) allBytes += gz(`assets/${f}`);
const cssBytes = fs
  .readdirSync(path.join(dist, 'assets'))
  .filter((f) => f.endsWith('.css'))
  .reduce((s, f) => s + gz(`assets/${f}`), 0);

console.log(
  `Initial JS: ${kb(initialBytes)} KB gzip in ${initial.size} file(s) (budget ${BUDGET_KB} KB); all JS ${kb(allBytes)} KB gzip in ${all.length} chunks; CSS ${kb(cssBytes)} KB gzip.`,
);
if (initialBytes > BUDGET_KB * 1024) {
  console.error(`Initial JS exceeds the ${BUDGET_KB} KB budget.`);
  process.exit(1);
}
