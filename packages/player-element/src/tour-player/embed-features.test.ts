// The embed contract: privacy-strict storage, lazy loading, room deep links, unbranded (MLS) mode and
// company branding, on the real server's tours (markers Entrance 0, Kitchen 40, Bedroom 100); the branding is the real
// server's Custom Company Branding of the branded tour's company (logo and accent #8a1c7c).
import { expect } from '@esm-bundle/chai';
import { guardedStorage, safeLocalStorage } from '@roomwalk/shared';
import '../tour-player/tour-player.js';
import type { TourPlayer } from './tour-player.component.js';
import {
  brandedToken,
  canvasOf,
  cleanup,
  firstEvent,
  makePlayer,
  once,
  readBarcode,
  real,
  sameOriginServer,
  server,
  until,
} from '../../test/helpers.js';

const securityError = () =>
  new DOMException(
    "Failed to read the 'localStorage' property from 'Window': Access is denied for this document.",
    'SecurityError',
  );

/** Makes window.localStorage throw as Chromium does in a cross-site iframe with third-party storage blocked. */
function blockStorage(): () => void {
  const own = Object.getOwnPropertyDescriptor(window, 'localStorage');
  Object.defineProperty(window, 'localStorage', {
    configurable: true,
    get: () => {
      throw securityError();
    },
  });
  return () => {
    if (own) Object.defineProperty(window, 'localStorage', own);
    else delete (window as { localStorage?: Storage }).localStorage;
  };
}

const roomLog = new WeakMap<TourPlayer, CustomEvent[]>();
/** Records tour-room-change (the helpers record the older events only). */
function withRooms(p: TourPlayer): TourPlayer {
  const list: CustomEvent[] = [];
  roomLog.set(p, list);
  p.addEventListener('tour-room-change', (e) => list.push(e));
  return p;
}
const roomsOf = (p: TourPlayer) => roomLog.get(p) ?? [];

async function ready(p: TourPlayer): Promise<TourPlayer> {
  await firstEvent(p, 'tour-ready');
  return p;
}

const resourcesSince = (t0: number) =>
  performance.getEntriesByType('resource').filter((e) => e.startTime >= t0) as PerformanceResourceTiming[];

describe('Privacy-strict visitors: one guarded store', () => {
  afterEach(cleanup);

  it('keeps values in memory when localStorage throws SecurityError, and the tour plays', async () => {
    const restore = blockStorage();
    try {
      expect(() => window.localStorage).to.throw();
      const store = guardedStorage('localStorage');
      store.setItem('capturedDetails', '{"name":"Ann"}');
      expect(store.getItem('capturedDetails')).to.equal('{"name":"Ann"}');
      expect(store.length).to.equal(1);
      store.removeItem('capturedDetails');
      expect(store.getItem('capturedDetails')).to.equal(null);
      // The player's own store (AI-marker resume, lead) goes through the same guard.
      safeLocalStorage().setItem('roomwalk.aiMarkers.active', JSON.stringify({ tourId: real.edit, at: Date.now() }));
      const p = await ready(await makePlayer({ 'tour-id': real.main, api: server }));
      expect(p.playerStatus).to.equal('ready');
    } finally {
      restore();
    }
  });

  it('writes through to localStorage when it answers, and falls back when a write throws (quota)', () => {
    let fail = false;
    const backing = new Map<string, string>();
    const host = {
      getItem: (k: string) => backing.get(k) ?? null,
      setItem: (k: string, v: string) => {
        if (fail) throw new DOMException('full', 'QuotaExceededError');
        backing.set(k, v);
      },
      removeItem: (k: string) => void backing.delete(k),
      clear: () => backing.clear(),
      key: (i: number) => [...backing.keys()][i] ?? null,
      get length() {
        return backing.size;
      },
    } as Storage;
    const store = guardedStorage('localStorage', () => host);
    store.setItem('a', '1');
    expect(backing.get('a')).to.equal('1');
    fail = true;
    store.setItem('a', '2');
    expect(store.getItem('a')).to.equal('2');
    expect(backing.get('a')).to.equal('1');
  });
});

describe('Lazy loading', () => {
  afterEach(() => {
    cleanup();
    document.querySelector('#spacer')?.remove();
    window.scrollTo(0, 0);
  });

  async function below(attrs: Record<string, string | boolean>): Promise<TourPlayer> {
    const spacer = document.createElement('div');
    spacer.id = 'spacer';
    spacer.style.height = '4000px';
    document.body.prepend(spacer);
    return makePlayer({ 'tour-id': real.main, api: server, ...attrs });
  }

  it('fetches only the tour and its poster until the element nears the viewport, then plays', async () => {
    performance.setResourceTimingBufferSize(2000);
    performance.clearResourceTimings();
    const t0 = performance.now();
    const p = await below({});
    await until(() => p.shadowRoot?.querySelector('img.poster')?.getAttribute('src'), 'poster shown');
    await until(() => (p.shadowRoot!.querySelector('img.poster') as HTMLImageElement).complete, 'poster loaded');
    // Give the element every chance to start work it should not: a few frames after the poster.
    for (let i = 0; i < 10; i++) await new Promise((r) => requestAnimationFrame(r));
    const before = resourcesSince(t0).filter((e) => e.name.startsWith(server));
    const stats = await p.stats();
    expect(stats.workers, 'decode workers before the tour is in view').to.equal(0);
    expect(p.loadedFrameCount).to.equal(0);
    // The tour query and the poster (which the memory cache may answer without an entry), and the visit beacon: no
    // clip.
    const paths = before.map((e) => new URL(e.name).pathname);
    expect(paths).to.include('/query');
    expect(
      paths.filter((x) => !['/query', '/tour-visit'].includes(x) && !/^\/media\/tours\/.+\/thumbnail\.jpg$/.test(x)),
    ).to.deep.equal([]);
    const bytesBefore = before.reduce((n, e) => n + e.transferSize, 0);
    const tScroll = performance.now();
    p.scrollIntoView();
    await firstEvent(p, 'tour-ready');
    const firstFrameMs = performance.now() - tScroll;
    expect((await p.stats()).workers).to.be.greaterThan(0);
    expect(readBarcode(canvasOf(p))).to.equal(0);
    console.log(
      `[lazy] before the tour is in view: ${before.length} requests, ${bytesBefore} bytes (main thread); first frame ${firstFrameMs.toFixed(0)} ms after scrolling to it`,
    );
  });

  /** Holds the tour query until `release()`, and counts the workers started (decode and paint) meanwhile. */
  function holdQueryAndCountWorkers() {
    const ownFetch = window.fetch;
    const OwnWorker = window.Worker;
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    let queried = false;
    const started: string[] = [];
    window.fetch = async (input, init) => {
      if (String(input instanceof Request ? input.url : input).includes('/query')) {
        queried = true;
        await gate;
      }
      return ownFetch(input, init);
    };
    window.Worker = class extends OwnWorker {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        started.push(options?.name ?? 'worker');
      }
    };
    return {
      started,
      queried: () => queried,
      release: open,
      restore() {
        open();
        window.fetch = ownFetch;
        window.Worker = OwnWorker;
      },
    };
  }

  it('eager: the decode and paint workers start while the tour query is in flight, and play the tour (warm start)', async () => {
    const held = holdQueryAndCountWorkers();
    try {
      const p = await below({ loading: 'eager' });
      await until(() => held.queried(), 'the tour query sent');
      await until(
        () => held.started.includes('tour-decode') && held.started.includes('tour-paint'),
        'workers started before the answer',
      );
      const warm = held.started.length;
      expect(p.loadedFrameCount, 'nothing decoded before the answer').to.equal(0);
      held.release();
      await until(() => p.loadedFrameCount > 0, 'clips buffered');
      // The tour is decoded by the workers started ahead: none was started again (the extra warm ones end).
      expect(held.started.length, `workers started: ${held.started.join(', ')}`).to.equal(warm);
      expect((await p.stats()).workers).to.be.greaterThan(0);
    } finally {
      held.restore();
    }
  });

  it('lazy and out of view: no worker starts while the query is in flight nor after it', async () => {
    const held = holdQueryAndCountWorkers();
    try {
      const p = await below({});
      await until(() => held.queried(), 'the tour query sent');
      held.release();
      await until(() => p.shadowRoot?.querySelector('img.poster')?.getAttribute('src'), 'poster shown');
      for (let i = 0; i < 10; i++) await new Promise((r) => requestAnimationFrame(r));
      expect(held.started, 'workers started out of view').to.deep.equal([]);
      p.scrollIntoView();
      await firstEvent(p, 'tour-ready');
      expect(held.started).to.include('tour-decode');
    } finally {
      held.restore();
    }
  });

  it('loading="eager" starts decoding out of view', async () => {
    const p = await below({ loading: 'eager' });
    await until(async () => (await p.stats()).workers > 0, 'decode workers started');
    await until(() => p.loadedFrameCount > 0, 'clips buffered while out of view');
    expect(p.shadowRoot!.querySelector('img.poster')).to.equal(null);
  });
});

describe('Pasted with no CSS', () => {
  afterEach(() => {
    cleanup();
    document.querySelector('#bare')?.remove();
  });

  it('is as wide as its container and as tall as a 16:9 picture of that width needs (a portrait tour: its own shape)', async () => {
    for (const [width, tourId, picture] of [
      [390, real.main, { width: 374, height: 210 }],
      [700, real.main, { width: 650, height: 366 }],
      [390, real.portrait, { width: 253, height: 450 }],
    ] as const) {
      const box = document.createElement('div');
      box.id = 'bare';
      box.style.width = `${width}px`;
      const p = document.createElement('tour-player') as TourPlayer;
      p.setAttribute('tour-id', tourId);
      p.setAttribute('api', server);
      p.setAttribute('loading', 'eager');
      box.append(p);
      const ready = once(p, 'tour-ready', 30_000);
      document.body.append(box);
      await ready;
      await until(
        () => Math.abs(canvasOf(p).getBoundingClientRect().height - picture.height) <= 2,
        `the ${picture.height} px picture at ${width} px`,
      );
      const c = canvasOf(p).getBoundingClientRect();
      expect(p.getBoundingClientRect().width, `${width}: element width`).to.equal(width);
      expect(Math.abs(c.width - picture.width), `${width}: picture ${c.width}x${c.height}`).to.be.at.most(2);
      box.remove();
    }
  });
});

describe('Deep links to a room', () => {
  afterEach(cleanup);

  it('start-room opens at the room (case-insensitive) and fires tour-room-change', async () => {
    const p = await ready(withRooms(await makePlayer({ 'tour-id': real.main, api: server, 'start-room': 'kitchen' })));
    expect(p.currentFrame).to.equal(40);
    expect(p.currentRoom?.name).to.equal('Kitchen');
    await until(() => readBarcode(canvasOf(p)) === 40, 'frame 40 drawn');
    const rooms = roomsOf(p);
    expect(rooms.length).to.equal(1);
    expect(rooms.at(-1)!.detail).to.include({ room: 'Kitchen', frame: 40 });
  });

  it('start-frame opens at that frame; an unknown start-room falls back to it', async () => {
    const p = await ready(
      await makePlayer({ 'tour-id': real.main, api: server, 'start-frame': '100', 'start-room': 'Attic' }),
    );
    expect(p.currentFrame).to.equal(100);
    await until(() => readBarcode(canvasOf(p)) === 100, 'frame 100 drawn');
    expect(p.currentRoom?.name).to.equal('Bedroom');
  });

  it('goToRoom travels to a room by name; an unknown room rejects', async () => {
    const p = await ready(withRooms(await makePlayer({ 'tour-id': real.main, api: server })));
    await until(() => p.loadedFrameCount >= p.totalFrames, 'buffered');
    await p.goToRoom('Bedroom');
    expect(p.currentFrame).to.equal(100);
    expect(roomsOf(p).map((e) => e.detail.room)).to.deep.equal(['Entrance', 'Kitchen', 'Bedroom']);
    let error: Error | null = null;
    await p.goToRoom('Attic').catch((e: Error) => (error = e));
    expect(error).to.be.instanceOf(Error);
    expect(p.currentFrame).to.equal(100);
  });
});

describe('Unbranded (MLS) mode and company branding', () => {
  // Agent mode with the owner's token, same-origin as on the product's /agentplayer route (the server takes no token
  // from another origin).
  afterEach(cleanup);

  const accent = (p: TourPlayer) => getComputedStyle(p).getPropertyValue('--tour-player-accent').trim();

  it('branded: the company logo is the intro logo and its accent colours the player', async () => {
    const p = await ready(
      await makePlayer(
        { 'tour-id': real.branded, api: sameOriginServer, mode: 'agent', 'live-viewing': true },
        { authToken: brandedToken },
        { width: 1000, height: 600 },
      ),
    );
    await until(() => p.loadedFrameCount >= p.totalFrames, 'buffered');
    await p.goToFrame(p.totalFrames - 1);
    await p.updateComplete;
    const root = p.shadowRoot!;
    // The company logo as the server serves it (a media URL of the real server).
    expect(p.tour!.tourIntroLogoURL).to.match(new RegExp(`^${server}/media/`));
    expect(root.querySelector('img.intro-logo')?.getAttribute('src')).to.equal(p.tour!.tourIntroLogoURL);
    expect(accent(p)).to.equal('#8a1c7c');
    expect(getComputedStyle(root.querySelector('.buffer-bar')!).backgroundColor).to.equal('rgb(138, 28, 124)');
    expect(root.textContent)
      .to.match(/Listing Link/)
      .and.match(/Whats Chat/)
      .and.match(/Ann Agent/);
    expect(root.querySelector('[part="live-start"]')).to.not.equal(null);
    expect(root.querySelectorAll('a').length).to.be.greaterThan(0);
    // A page's own value still wins over the company's.
    p.style.cssText += ';--tour-player-accent:#123456';
    expect(accent(p)).to.equal('#123456');
  });

  it("a session that no longer stands (expired, its account deleted) plays the tour as a visitor's would", async () => {
    const p = await ready(
      await makePlayer(
        { 'tour-id': real.branded, api: sameOriginServer },
        { authToken: 'a-session-the-server-no-longer-knows' },
        { width: 1000, height: 600 },
      ),
    );
    expect(p.tour?.id).to.equal(real.branded);
    expect(p.shadowRoot!.querySelector('[role="alertdialog"]')).to.equal(null);
  });

  it('unbranded: no intro logo, accent, agent card, listing link, Whats Chat, live call, menu or any link', async () => {
    const p = await ready(
      await makePlayer(
        { 'tour-id': real.branded, api: sameOriginServer, mode: 'agent', 'live-viewing': true, unbranded: true },
        { authToken: brandedToken },
        { width: 1000, height: 600 },
      ),
    );
    await until(() => p.loadedFrameCount >= p.totalFrames, 'buffered');
    // The agent card opens at the end of a branded agent tour: not here.
    await p.goToFrame(p.totalFrames - 1);
    await p.updateComplete;
    const root = p.shadowRoot!;
    expect(root.querySelector('img.intro-logo')).to.equal(null);
    expect(accent(p)).to.equal('#1565c0');
    expect(root.querySelector('.info-panel, .agent-card')).to.equal(null);
    expect(root.querySelector('[part="live-start"]')).to.equal(null);
    expect(root.querySelector('button.menu, slot[name="menu"]')).to.equal(null);
    expect(root.querySelectorAll('a, [href]').length).to.equal(0);
    expect(root.textContent).to.not.match(/Listing Link|Whats Chat|Ann Agent|Talk to Agent/);
  });

  it('unbranded error dialogs carry no outbound links', async () => {
    const p = await makePlayer({ 'tour-id': 'not-a-tour', api: server, unbranded: true });
    await firstEvent(p, 'tour-error');
    await p.updateComplete;
    expect(p.shadowRoot!.querySelectorAll('a, [href]').length).to.equal(0);
  });
});
