// The benchmark's passes: a device profile set through the Chrome DevTools Protocol before the page loads, and an
// optional background load the bench starts itself (bounded, killed at the end of the pass).
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';

export const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/**
 * Passes, in order. `phone` is a low-end phone: CPU throttled 4x, deviceMemory 3 and hardwareConcurrency 4, a mobile
 * user agent and a 390x844 touch viewport at DPR 3, so the player applies its own device rules (tours §9: one worker
 * at 3 GB, batch 10, 360p only under 4 GB). `busyCores` starts that many busy processes for the pass (a core's worth
 * each of work beside the player, on top of whatever else the machine runs).
 */
export const PASSES = {
  desktop: {
    label: 'desktop',
    player: { width: 1000, height: 600 },
    wantHigh: true,
    longTour: true,
    targets: { exact: 0.95, jump: 100, first: 1000, memory: 150 },
  },
  loaded: {
    label: 'desktop + one busy core',
    busyCores: 1,
    player: { width: 1000, height: 600 },
    wantHigh: true,
    longTour: false,
    targets: { exact: 0.9, jump: 150, first: 1000, memory: 150 },
  },
  // A buyer's machine running other work: both of a 2-core machine's cores busy beside the player.
  busy2: {
    label: 'desktop + two busy cores',
    busyCores: 2,
    player: { width: 1000, height: 600 },
    wantHigh: true,
    longTour: false,
    targets: { exact: 0.9, jump: 150, first: 1000, memory: 150 },
  },
  phone: {
    label: 'low-end phone (CPU 4x, 3 GB, 4 cores, 390x844 touch, DPR 3)',
    phone: { cpu: 4, deviceMemory: 3, cores: 4, width: 390, height: 844, dpr: 3 },
    player: { width: 390, height: 844 },
    wantHigh: false,
    longTour: false,
    targets: { exact: 0.9, jump: 150, first: 1500, memory: 60 },
  },
};

const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 13; Pixel 5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/** Applies a pass's device profile to a page (before it loads); returns its CDP session. */
export async function applyProfile(page, pass) {
  const cdp = await page.createCDPSession();
  const p = pass.phone;
  if (!p) return cdp;
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: p.cpu });
  await cdp.send('Emulation.setDeviceMetricsOverride', {
    width: p.width,
    height: p.height,
    deviceScaleFactor: p.dpr,
    mobile: true,
  });
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
  await cdp.send('Emulation.setUserAgentOverride', { userAgent: PHONE_UA });
  await cdp.send('Page.enable');
  await cdp.send('Page.addScriptToEvaluateOnNewDocument', {
    source: `(() => {
      const nav = Navigator.prototype;
      Object.defineProperty(nav, 'deviceMemory', { get: () => ${p.deviceMemory}, configurable: true });
      Object.defineProperty(nav, 'hardwareConcurrency', { get: () => ${p.cores}, configurable: true });
      Object.defineProperty(nav, 'userAgentData', { get: () => ({ mobile: true, brands: [], platform: 'Android' }), configurable: true });
    })();`,
  });
  return cdp;
}

/** `n` busy child processes (tight loops: about one core each), for at most `maxMs`; returns a stop function. */
export function startBusyCores(n, maxMs = 30 * 60 * 1000) {
  const children = Array.from({ length: n }, () =>
    spawn(process.execPath, ['-e', `const end = Date.now() + ${maxMs}; while (Date.now() < end) {}`], {
      stdio: 'ignore',
    }),
  );
  const pids = children.map((c) => c.pid).join(', ');
  console.log(
    `[bench] background load: ${n} busy process(es) (pids ${pids}, tight loops, at most ${maxMs / 60000} min), load average ${load()}`,
  );
  return () => {
    for (const c of children) c.kill('SIGKILL');
    console.log(`[bench] background load stopped (pids ${pids}), load average ${load()}`);
  };
}

/**
 * Times the same busy loop on the main thread and in a dedicated worker, without and with the pass's CPU throttling.
 */
export async function throttleProbe(page, cdp, rate) {
  // Alternating, five times each, medians: the machine's own load moves single runs a lot.
  const runs = { 1: [], [rate]: [] };
  for (let i = 0; i < 5; i++) {
    for (const r of [1, rate]) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: r });
      runs[r].push(await page.evaluate(() => window.bench.busyLoop(2e7)));
    }
  }
  const out = {};
  for (const r of [1, rate]) {
    const med = (k) => runs[r].map((x) => x[k]).sort((a, b) => a - b)[2];
    out[r] = { main: med('main'), worker: med('worker'), canvas: med('workerCanvas') };
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  const mainX = out[rate].main / out[1].main;
  const workerX = out[rate].worker / out[1].worker;
  const canvasX = out[rate].canvas / out[1].canvas;
  const reaches = (x) => (x > rate * 0.6 ? 'reaches' : x > 1.3 ? 'partly reaches' : 'does not reach');
  console.log(
    `[bench] CPU throttling ${rate}x, the same busy loop (median of 5, alternating): main thread ${out[1].main.toFixed(0)} -> ${out[rate].main.toFixed(0)} ms (${mainX.toFixed(1)}x), dedicated worker ${out[1].worker.toFixed(0)} -> ${out[rate].worker.toFixed(0)} ms (${workerX.toFixed(1)}x): throttling ${reaches(workerX)} a worker's JavaScript; 40 bitmaps (640x360 putImageData + transferToImageBitmap) in the worker ${out[1].canvas.toFixed(0)} -> ${out[rate].canvas.toFixed(0)} ms (${canvasX.toFixed(1)}x): it ${reaches(canvasX)} a worker's canvas work`,
  );
  return { mainX, workerX, canvasX };
}
