// What the worker microbenches (convert.mjs, paint-paths.mjs) share: the worker's script served on localhost (a secure
// page: WebCodecs), then per engine and pass a fresh browser, the pass's busy cores started, one dedicated worker sent
// `{ rounds }`, its answer handed to `report` with the load before and after; the median and mean of a list of times.
import { createServer } from 'node:http';
import { startDriver } from '../test/engines.mjs';
import { load, startBusyCores } from './profiles.mjs';

const BUSY = { quiet: 0, busy1: 1, busy2: 2 };

export async function runWorkerBench({ title, worker, engines, passes, rounds, report }) {
  const web = createServer((req, res) => {
    if (req.url === '/worker.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(worker);
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${title}</title>`);
  });
  await new Promise((r) => web.listen(0, 'localhost', r));
  const page = `http://localhost:${web.address().port}/`;
  try {
    for (const engine of engines)
      for (const pass of passes) {
        const stopBusy = BUSY[pass] ? startBusyCores(BUSY[pass], 10 * 60 * 1000) : () => {};
        const d = await startDriver(engine);
        try {
          await d.goto(page);
          const before = load();
          const result = await d.evaluate(
            (n) =>
              new Promise((resolve, reject) => {
                const w = new Worker('/worker.js');
                w.onmessage = (e) => resolve(e.data);
                w.onerror = (e) => reject(new Error(e.message));
                w.postMessage({ rounds: n });
              }),
            rounds,
          );
          report({ version: d.version, pass, load: `load ${before} before, ${load()} after`, result });
        } finally {
          await d.close();
          stopBusy();
        }
      }
  } finally {
    web.close();
  }
}

export const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
export const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
