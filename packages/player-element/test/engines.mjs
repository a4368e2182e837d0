// The three browser engines visitors arrive with, each from Debian's packages (never a downloaded build):
// Chromium and Firefox ESR through puppeteer-core (Firefox over WebDriver BiDi), WebKitGTK through WebKitWebDriver
// on a private Xvfb display. Used by web-test-runner.config.mjs, the bench (bench/engines.mjs) and the console's
// cross-engine embed journey (packages/console/e2e/embed-engines.spec.ts).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { ChromeLauncher, chromeLauncher } from '@web/test-runner-chrome';
import * as puppeteer from 'puppeteer-core';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const FIREFOX_PATH = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
const MINIBROWSER_PATH = process.env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
export const ENGINES = ['chromium', 'firefox', 'webkit'];

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--js-flags=--expose-gc',
  '--autoplay-policy=no-user-gesture-required',
];
// Autoplay allowed (as --autoplay-policy for Chromium): the <video> fallback plays muted clips without a gesture.
const FIREFOX_PREFS = {
  'media.autoplay.default': 0,
  'media.autoplay.blocking_policy': 0,
  'browser.shell.checkDefaultBrowser': false,
};

/** The engines asked for in TEST_ENGINES (a comma list of chromium, firefox, webkit; all three when unset). */
export function enginesFromEnv(value = process.env.TEST_ENGINES) {
  const names = (value || ENGINES.join(','))
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((n) => !ENGINES.includes(n));
  if (unknown.length > 0)
    throw new Error(`TEST_ENGINES names ${unknown.join(', ')}; the engines are ${ENGINES.join(', ')}`);
  return names;
}

/** puppeteer-core launch options for Chromium or Firefox ESR. */
function puppeteerOptions(engine) {
  if (engine === 'chromium') return { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS };
  if (engine === 'firefox')
    return { browser: 'firefox', executablePath: FIREFOX_PATH, headless: true, extraPrefsFirefox: FIREFOX_PREFS };
  throw new Error(`${engine} is not driven through puppeteer`);
}

// A test page's modules are compiled on first request: on a busy 2-core machine its load outlasts puppeteer's 30 s.
const newPage = async ({ context }) => {
  const page = await context.newPage();
  page.setDefaultNavigationTimeout(120_000);
  return page;
};

/** A web-test-runner launcher for one engine. */
export function wtrLauncher(engine) {
  if (engine === 'chromium')
    return chromeLauncher({ launchOptions: puppeteerOptions('chromium'), createPage: newPage });
  if (engine === 'firefox') {
    // @web/test-runner-puppeteer's launcher is this class with the full puppeteer package (which downloads browsers
    // on install); puppeteer-core drives the installed Firefox the same way.
    return new ChromeLauncher(
      puppeteerOptions('firefox'),
      ({ browser }) => browser.defaultBrowserContext(),
      newPage,
      puppeteer,
    );
  }
  if (engine === 'webkit') return new WebKitLauncher();
  throw new Error(`unknown engine ${engine}`);
}

const freePort = () =>
  new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });

/** An X display of its own (Xvfb picks a free number and tells it on fd 3), so no xvfb-run wrapper is needed. */
async function startXvfb() {
  const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1600x1200x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const display = await new Promise((resolveDisplay, reject) => {
    child.once('error', (e) => reject(new Error(`Xvfb could not start (${e.message}); install Debian's xvfb`)));
    child.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}: ${stderr.trim()}`)));
    child.stdio[3].once('data', (d) => resolveDisplay(`:${String(d).trim()}`));
  });
  return { display, stop: () => child.kill() };
}

/**
 * A WebKitGTK session through WebKitWebDriver (W3C WebDriver over HTTP): MiniBrowser in automation mode on its own
 * Xvfb display. `close()` ends the session, the driver and the display.
 */
async function startWebKitSession() {
  const xvfb = process.env.DISPLAY && process.env.WEBKIT_USE_DISPLAY ? null : await startXvfb();
  const display = xvfb?.display ?? process.env.DISPLAY;
  const port = await freePort();
  const driver = spawn('WebKitWebDriver', [`--port=${port}`], {
    env: { ...process.env, DISPLAY: display },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise((_, reject) =>
    driver.once('exit', (code) => reject(new Error(`WebKitWebDriver exited with ${code}`))),
  );
  driver.once('error', () => undefined);
  const call = async (method, path, body) => {
    const res = await Promise.race([
      fetch(`${base}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      exited,
    ]);
    const json = await res.json();
    if (!res.ok)
      throw new Error(`WebKitWebDriver ${method} ${path}: ${json.value?.error} ${json.value?.message ?? ''}`);
    return json.value;
  };
  for (let tries = 0; ; tries++) {
    try {
      await call('GET', '/status');
      break;
    } catch (error) {
      if (tries > 100 || driver.exitCode !== null)
        throw new Error(
          `WebKitWebDriver did not answer on ${base} (is webkit2gtk-driver installed?): ${error.message}`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const created = await call('POST', '/session', {
    capabilities: {
      alwaysMatch: {
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': { binary: MINIBROWSER_PATH, args: ['--automation'] },
        // Scripts the journey and the bench run may wait minutes (a whole scrub); WebDriver's default is 30 s.
        timeouts: { script: 600_000, pageLoad: 300_000 },
      },
    },
  });
  const session = `/session/${created.sessionId}`;
  return {
    version: created.capabilities.browserVersion,
    /** The driver's process id: MiniBrowser and its web processes are its descendants (the bench's CPU quota). */
    pid: driver.pid,
    call: (method, path, body) => call(method, `${session}${path}`, body),
    navigate: (url) => call('POST', `${session}/url`, { url }),
    /** Runs `script` (a function body) in the page; an async one may `return` a promise. */
    execute: (script, args = []) =>
      call('POST', `${session}/execute/async`, {
        script: `const done = arguments[arguments.length - 1]; Promise.resolve((async function () { ${script} })(...Array.from(arguments).slice(0, -1))).then(done, (e) => done({ __error: String(e && e.stack || e) }));`,
        args,
      }).then((v) => {
        if (v && typeof v === 'object' && '__error' in v) throw new Error(v.__error);
        return v;
      }),
    close: async () => {
      await call('DELETE', session).catch(() => undefined);
      driver.kill();
      xvfb?.stop();
    },
  };
}

/**
 * One page in one engine, driven the same way in all three (the console's cross-engine embed journey and the bench):
 * goto, evaluate a function in the page or in an iframe (another origin's too), close.
 */
export async function startDriver(engine) {
  if (engine === 'webkit') {
    const wk = await startWebKitSession();
    const run = (fn, args) => wk.execute(`return (${fn.toString()})(...arguments);`, args);
    return {
      engine,
      version: `WebKitGTK ${wk.version}`,
      pid: wk.pid,
      goto: (url) => wk.navigate(url),
      evaluate: (fn, ...args) => run(fn, args),
      async evaluateInFrame(urlPart, fn, ...args) {
        // WebDriver reaches a frame through its <iframe> element: find it by src, switch in, run, switch back.
        const element = await wk.call('POST', '/element', {
          using: 'css selector',
          value: `iframe[src*=${JSON.stringify(urlPart)}]`,
        });
        await wk.call('POST', '/frame', { id: element });
        try {
          return await run(fn, args);
        } finally {
          await wk.call('POST', '/frame/parent', {});
        }
      },
      close: () => wk.close(),
    };
  }
  const browser = await puppeteer.launch({ ...puppeteerOptions(engine), protocolTimeout: 600_000 });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  return {
    engine,
    version: await browser.version(),
    pid: browser.process()?.pid,
    goto: async (url) => {
      await page.goto(url);
    },
    evaluate: (fn, ...args) => page.evaluate(fn, ...args),
    async evaluateInFrame(urlPart, fn, ...args) {
      const frame = page.frames().find((f) => f.url().includes(urlPart));
      if (!frame) throw new Error(`no frame at ${urlPart} yet`);
      return frame.evaluate(fn, ...args);
    },
    close: () => browser.close(),
  };
}

// WebDriver's key codes for the key names tests press (the W3C "keyboard actions" table).
const KEYS = {
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
  Home: '\uE011',
  End: '\uE010',
  PageUp: '\uE00E',
  PageDown: '\uE00F',
  Enter: '\uE007',
  Escape: '\uE00C',
  Tab: '\uE004',
  Backspace: '\uE003',
  Space: ' ',
  Shift: '\uE008',
};

/**
 * web-test-runner launcher for WebKitGTK: each test file in a MiniBrowser of its own (a fresh web process), one file at
 * a time. One window for every file let a web-process crash during one file (seen once in a clean-clone run, at the
 * start of host-and-memory after embed-features, not reproduced alone in three runs) fail every file after it with
 * "invalid session id"; a browser per file costs about two seconds a file and keeps what one file leaves behind (its
 * workers, decoders, GStreamer pipelines) out of the next. A crash still fails the file it happened in. Its type is
 * 'webdriver', so @web/test-runner-commands' sendKeys / sendMouse drive it through the methods below (the same
 * ones @web/test-runner-webdriver offers, here on plain W3C actions instead of webdriverio).
 */
class WebKitLauncher {
  name = 'WebKit';
  type = 'webdriver';
  concurrency = 1;
  #session;
  #active = new Set();
  #url;

  initialize() {}

  /** The file's own browser: the last file's is closed first (concurrency 1, so one is open at a time). */
  async #browser() {
    await this.#session?.close();
    this.#session = await startWebKitSession();
    this.name = `WebKit ${this.#session.version}`;
    return this.#session;
  }

  async startSession(id, url) {
    const browser = await this.#browser();
    this.#active.add(id);
    this.#url = url;
    await browser.navigate(url);
    // The viewport Chromium's launcher gives every test page.
    await this.setViewport(id, { width: 800, height: 600 });
  }

  /** Sizes the window so that the page's viewport is width x height (the set-viewport command). */
  async setViewport(_id, { width, height }) {
    const inner = await this.#session.execute('return [innerWidth, innerHeight];');
    const rect = await this.#session.call('GET', '/window/rect');
    await this.#session.call('POST', '/window/rect', {
      width: rect.width + width - inner[0],
      height: rect.height + height - inner[1],
    });
    return true;
  }

  isActive(id) {
    return this.#active.has(id);
  }

  getBrowserUrl() {
    return this.#session ? this.#session.call('GET', '/url').catch(() => this.#url) : this.#url;
  }

  startDebugSession() {
    throw new Error('Debugging is not offered in WebKit: run the file in Chromium with --manual');
  }

  async stopSession(id) {
    this.#active.delete(id);
    // The file's browser goes with it: its timers, workers and decoders do not reach the next file.
    const session = this.#session;
    this.#session = undefined;
    await session?.close();
    return { errors: [] };
  }

  async stop() {
    await this.#session?.close();
  }

  #actions(actions) {
    return this.#session.call('POST', '/actions', { actions });
  }

  sendKeys(_id, keys) {
    const actions = keys.flatMap((k) => {
      const value = KEYS[k] ?? k;
      return [
        { type: 'keyDown', value },
        { type: 'keyUp', value },
      ];
    });
    return this.#actions([{ type: 'key', id: 'keyboard', actions }]);
  }

  #pointer(actions) {
    return this.#actions([{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions }]);
  }

  sendMouseMove(_id, x, y) {
    return this.#pointer([
      { type: 'pointerMove', duration: 0, x: Math.round(x), y: Math.round(y), origin: 'viewport' },
    ]);
  }

  sendMouseClick(_id, x, y, button = 'left') {
    const b = button === 'right' ? 2 : button === 'middle' ? 1 : 0;
    return this.#pointer([
      { type: 'pointerMove', duration: 0, x: Math.round(x), y: Math.round(y), origin: 'viewport' },
      { type: 'pointerDown', button: b },
      { type: 'pointerUp', button: b },
    ]);
  }

  sendMouseDown(_id, button = 'left') {
    return this.#pointer([{ type: 'pointerDown', button: button === 'right' ? 2 : button === 'middle' ? 1 : 0 }]);
  }

  sendMouseUp(_id, button = 'left') {
    return this.#pointer([{ type: 'pointerUp', button: button === 'right' ? 2 : button === 'middle' ? 1 : 0 }]);
  }

  resetMouse() {
    return this.#session.call('DELETE', '/actions');
  }
}
