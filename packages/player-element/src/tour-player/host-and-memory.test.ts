import { expect } from '@esm-bundle/chai';
import { executeServerCommand } from '@web/test-runner-commands';
import '../tour-player/tour-player.js';
import type { TourPlayer } from './tour-player.component.js';
import { CACHE_BUDGET } from '../constants.js';
import {
  brandedToken,
  canvasOf,
  cleanup,
  eventsOf,
  firstEvent,
  makePlayer,
  observed,
  readBarcode,
  real,
  sameOriginServer,
  server,
  until,
} from '../../test/helpers.js';

// Every tour here comes from the real server (main: 180 frames in 5 clips, totalFrames 179, last scrollable 179;
// portrait: 720x1280). The host page of the message tests is served from a second origin by the test runner itself
// (127.0.0.1 instead of localhost).

async function readyPlayer(
  attrs: Record<string, string | boolean> = {},
  size?: { width: number; height: number },
): Promise<TourPlayer> {
  const p = await makePlayer({ 'tour-id': real.main, api: server, ...attrs }, {}, size);
  await firstEvent(p, 'tour-ready');
  await until(() => p.loadedFrameCount >= p.totalFrames, 'buffered');
  return p;
}

/** The test runner's own origin under its other name: a second origin for host pages. */
const otherOrigin = `${location.protocol}//127.0.0.1:${location.port}`;

/** Loads a page of another origin in an iframe that posts one message to this window. */
async function postFromOtherOrigin(type: string, frameIndex: number): Promise<void> {
  const done = new Promise<void>((resolve) => {
    const on = (e: MessageEvent) => {
      if (e.data?.type === 'host-frame-done') {
        window.removeEventListener('message', on);
        resolve();
      }
    };
    window.addEventListener('message', on);
  });
  const f = document.createElement('iframe');
  f.src = `${otherOrigin}/__host-frame.html?type=${encodeURIComponent(type)}&frameIndex=${frameIndex}`;
  document.body.append(f);
  await done;
  // Messages from one source arrive in order: the host message was handled before "done".
}

describe('Host messages', () => {
  afterEach(cleanup);

  it('accepts roomwalk_scroll from an allowed origin and fires a host frame change', async () => {
    const p = await readyPlayer({ 'host-events': true, 'allowed-origins': otherOrigin });
    await postFromOtherOrigin('roomwalk_scroll', 50);
    expect(p.currentFrame).to.equal(50);
    await until(() => readBarcode(canvasOf(p)) === 50, 'frame 50 drawn');
    expect(eventsOf<CustomEvent>(p, 'tour-frame-change').at(-1)!.detail).to.deep.equal({ frame: 50, source: 'host' });
  });

  it('fast-travels on roomwalk_marker', async () => {
    const p = await readyPlayer({ 'host-events': true, 'allowed-origins': otherOrigin });
    await postFromOtherOrigin('roomwalk_marker', 100);
    expect(p.travelStatus).to.equal('forward');
    await until(() => p.currentFrame === 100 && readBarcode(canvasOf(p)) === 100, 'travelled to 100');
  });

  it('ignores messages from origins not on the allow-list', async () => {
    const p = await readyPlayer({ 'host-events': true });
    await postFromOtherOrigin('roomwalk_scroll', 50);
    expect(p.currentFrame).to.equal(0);
    expect((await p.stats()).rejectedHostMessages).to.equal(1);
  });

  it('ignores malformed messages and listens only when host-events or live-viewing is set', async () => {
    const p = await readyPlayer({ 'host-events': true });
    // Same-origin messages are allowed, but only well-formed ones act.
    const send = async (data: unknown) => {
      const got = new Promise((r) => window.addEventListener('message', r, { once: true }));
      window.postMessage(data, location.origin);
      await got;
    };
    await send({ type: 'roomwalk_scroll', frameIndex: '30' });
    await send({ type: 'roomwalk_scroll' });
    await send({ type: 'other', frameIndex: 30 });
    await send('roomwalk_scroll');
    expect(p.currentFrame).to.equal(0);
    await send({ type: 'roomwalk_scroll', data: { frameIndex: 30 } });
    expect(p.currentFrame).to.equal(30);
    p.hostEvents = false;
    await p.updateComplete;
    await send({ type: 'roomwalk_scroll', frameIndex: 10 });
    expect(p.currentFrame).to.equal(30);
    p.liveViewing = true;
    await p.updateComplete;
    await send({ type: 'roomwalk_scroll', frameIndex: 10 });
    expect(p.currentFrame).to.equal(10);
  });
});

describe('Frame cache and VideoFrame lifetime', () => {
  afterEach(cleanup);

  it('keeps decoded memory within budget, closes every VideoFrame, and logs no GC warnings', async function () {
    // 86 exact frames, each waited for: beyond the suite's 30 s on a loaded 2-core machine (WebKitGTK at load 29).
    this.timeout(120_000);
    await executeServerCommand('console-capture');
    const p = await readyPlayer();
    // Scrub through the whole tour forwards then backwards, waiting for each exact frame.
    for (let f = 0; f <= 177; f += 3) await p.goToFrame(f);
    for (let f = 177; f >= 0; f -= 7) await p.goToFrame(f);
    const s = await p.stats();
    expect(s.cacheBytes).to.be.at.most(CACHE_BUDGET.highBytes + CACHE_BUDGET.lowBytes);
    expect(s.peakDecodedBytes).to.be.at.most(150 * 1024 * 1024);
    // The peak counts the paint's bitmaps too: the painter's own peak, added to the decoder's.
    expect(s.peakBitmapBytes).to.be.greaterThan(0);
    expect(s.peakDecodedBytes).to.be.at.least(s.peakBitmapBytes);
    expect(s.cacheFrames).to.be.lessThan(180 * 2);
    // Painting is the paint worker's: the main thread opens no VideoFrame, it shows the bitmaps the worker made
    // (a handful kept around the playhead).
    expect(s.bitmapsMade).to.be.greaterThan(50);
    expect(s.readyBitmapBytes).to.be.at.most(4 * 1280 * 720 * 4);
    expect(s.workerOpenFrames).to.equal(0);
    expect(s.workerMaxOpenFrames).to.be.at.most(8);
    cleanup();
    // Force collection: an unclosed VideoFrame would now log a warning.
    for (let i = 0; i < 3; i++) (window as unknown as { gc?: () => void }).gc?.();
    await new Promise((r) => requestAnimationFrame(r));
    const messages = await observed<string[]>(this, 'console-messages');
    expect(messages.filter((m) => /garbage collected|without (having been )?closed/i.test(m))).to.deep.equal([]);
  });
});

describe('Fallback without WebCodecs', () => {
  afterEach(cleanup);

  it('seeks a <video> element and draws the frame instead of a blank player', async () => {
    const saved = window.VideoDecoder;
    (window as unknown as { VideoDecoder?: unknown }).VideoDecoder = undefined;
    try {
      const p = await makePlayer({ 'tour-id': real.main, api: server });
      await firstEvent(p, 'tour-ready');
      expect(readBarcode(canvasOf(p))).to.equal(0);
      await p.goToFrame(77);
      expect(readBarcode(canvasOf(p))).to.equal(77);
    } finally {
      window.VideoDecoder = saved;
    }
  });
});

describe('Layouts', () => {
  afterEach(cleanup);

  it('sizes the canvas at most 650 px wide in landscape', async () => {
    const p = await readyPlayer({}, { width: 1400, height: 800 });
    const r = canvasOf(p).getBoundingClientRect();
    expect(Math.round(r.width)).to.equal(650);
    expect(Math.round(r.height)).to.equal(366);
  });

  it('plays portrait tours in a portrait canvas', async () => {
    const p = await makePlayer({ 'tour-id': real.portrait, api: server }, {}, { width: 1000, height: 900 });
    await firstEvent(p, 'tour-ready');
    await p.goToFrame(40);
    const c = canvasOf(p);
    const r = c.getBoundingClientRect();
    expect(r.height).to.be.greaterThan(r.width);
    expect(readBarcode(c, { width: 720, height: 1280 })).to.equal(40);
  });

  it('shows Tour Info and opens the agent card near the end in agent mode', async () => {
    const p = await readyPlayer({ mode: 'agent' }, { width: 1200, height: 700 });
    await p.updateComplete;
    const info = p.shadowRoot!.querySelector('[part="info-panel"]')!;
    expect(info.textContent).to.contain('Tour Info').and.contain('A bright villa by the sea.');
    expect(p.shadowRoot!.querySelector('.agent-card')).to.equal(null);
    await p.goToFrame(176);
    await p.goToFrame(179); // the last scrollable frame

    await p.updateComplete;
    const card = p.shadowRoot!.querySelector('.agent-card')!;
    expect(card.textContent)
      .to.contain('Agent Details')
      .and.contain('Ann Agent')
      .and.contain('Listing Link')
      .and.contain('Whats Chat');
    (card.querySelector('.close') as HTMLButtonElement).click();
    await p.updateComplete;
    expect(p.shadowRoot!.querySelector('.agent-card')).to.equal(null);
  });

  it('draws Listing Link and Whats Chat as spaced buttons with AA contrast, in the Tour Info panel and the card', async () => {
    const p = await readyPlayer({ mode: 'agent' }, { width: 1200, height: 700 });
    await p.updateComplete;
    const channel = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
    const luminance = (rgb: string) => {
      const [r, g, b] = rgb.match(/[\d.]+/g)!.map(Number);
      return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
    };
    const check = (where: string) => {
      const links = [...p.shadowRoot!.querySelectorAll<HTMLAnchorElement>(`${where} a.button`)];
      expect(
        links.map((a) => a.textContent!.trim()),
        where,
      ).to.deep.equal(['Listing Link', 'Whats Chat']);
      for (const a of links) {
        const cs = getComputedStyle(a);
        expect(cs.backgroundColor, `${where} ${a.textContent} has its own background`).to.not.match(
          /rgba\(0, 0, 0, 0\)|transparent/,
        );
        const [l1, l2] = [luminance(cs.color), luminance(cs.backgroundColor)].sort((x, y) => y - x);
        expect((l1! + 0.05) / (l2! + 0.05), `${where} ${a.textContent} contrast`).to.be.at.least(4.5);
        expect(a.getBoundingClientRect().height, `${where} ${a.textContent} target height`).to.be.at.least(44);
      }
      const [first, second] = links.map((a) => a.getBoundingClientRect());
      const gap = Math.max(second!.left - first!.right, second!.top - first!.bottom);
      expect(gap, `${where} space between the buttons`).to.be.at.least(8);
    };
    check('[part="info-panel"]');
    await p.goToFrame(177);
    await p.updateComplete;
    check('.agent-card');
  });

  it('fades the intro logo between 10 and 99 percent', async () => {
    // The branded tour's company logo is its intro logo (the real server's Custom Company Branding).
    const p = await makePlayer(
      { 'tour-id': real.branded, api: sameOriginServer, mode: 'agent' },
      { authToken: brandedToken },
    );
    await firstEvent(p, 'tour-ready');
    await until(() => p.loadedFrameCount >= p.totalFrames, 'buffered');
    await p.updateComplete;
    const logo = () => p.shadowRoot!.querySelector('.intro-logo')!;
    const last = p.totalFrames; // the last real frame
    expect(logo().classList.contains('faded')).to.equal(false);
    await p.goToFrame(Math.round(last / 2));
    await p.updateComplete;
    expect(logo().classList.contains('faded')).to.equal(true);
    await p.goToFrame(last);
    await p.updateComplete;
    expect(logo().classList.contains('faded')).to.equal(false);
  });
});

describe('Notices to a parent page', () => {
  afterEach(cleanup);

  async function embedded(allowed: string): Promise<MessageEvent[]> {
    const got: MessageEvent[] = [];
    const on = (e: MessageEvent) => {
      if (typeof e.data?.type === 'string' && e.data.type.startsWith('roomwalk_player')) got.push(e);
    };
    window.addEventListener('message', on);
    const done = new Promise<void>((resolve) => {
      window.addEventListener('message', function fin(e) {
        if (e.data?.type === 'embed-ready') {
          window.removeEventListener('message', fin);
          resolve();
        }
      });
    });
    const f = document.createElement('iframe');
    f.style.cssText = 'width:900px;height:500px';
    f.srcdoc = `<!doctype html><body style="margin:0">
      <script src="/packages/player-element/dist/tour-player.js"></script>
      <tour-player tour-id="${real.main}" api="${server}" host-events ${allowed ? `allowed-origins="${allowed}"` : ''} style="height:480px"></tour-player>
      <script>
        const p = document.querySelector('tour-player');
        p.addEventListener('tour-ready', () => {
          p.shadowRoot.querySelector('canvas').dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
          setTimeout(() => parent.postMessage({ type: 'embed-ready' }, '*'), 0);
        });
      </script></body>`;
    document.body.append(f);
    await done;
    // The frame notice was posted before "embed-ready": messages from one window keep their order.
    window.removeEventListener('message', on);
    return got;
  }

  it('posts ready and frame notices only to allowed origins, by name', async () => {
    const got = await embedded(location.origin);
    expect(got.map((e) => e.data)).to.deep.equal([
      { type: 'roomwalk_player_ready', totalFrames: 179 },
      { type: 'roomwalk_player_frame', frameIndex: 1 },
    ]);
    expect(got.every((e) => e.origin === location.origin)).to.equal(true);
  });

  it('posts nothing when no origin is allowed (never to "*")', async () => {
    expect(await embedded('')).to.deep.equal([]);
  });
});

describe('Script-tag bundle', () => {
  afterEach(cleanup);

  it('dist/tour-player.js registers <tour-player> and plays a tour with its inlined worker', async () => {
    const f = document.createElement('iframe');
    f.style.width = '900px';
    f.style.height = '500px';
    const ready = new Promise<number>((resolve) => {
      window.addEventListener('message', function on(e) {
        if (e.data?.type === 'bundle-ready') {
          window.removeEventListener('message', on);
          resolve(e.data.frame);
        }
      });
    });
    f.srcdoc = `<!doctype html><body style="margin:0">
      <script src="/packages/player-element/dist/tour-player.js"></script>
      <tour-player tour-id="${real.main}" api="${server}" style="height:480px"></tour-player>
      <script>
        const p = document.querySelector('tour-player');
        p.addEventListener('tour-ready', async () => {
          await p.goToFrame(64);
          const shown = p.shadowRoot.querySelector('canvas');
          const c = document.createElement('canvas');
          c.width = shown.width;
          c.height = shown.height;
          const ctx = c.getContext('2d');
          ctx.drawImage(shown, 0, 0, c.width, c.height);
          let n = 0;
          for (let k = 0; k < 16; k++) {
            const x = Math.floor((40 * k + 20) * c.width / 1280), y = Math.floor(20 * c.height / 720);
            const d = ctx.getImageData(x, y, 1, 1).data;
            if (d[0] * 0.3 + d[1] * 0.59 + d[2] * 0.11 > 128) n |= 1 << k;
          }
          parent.postMessage({ type: 'bundle-ready', frame: n }, '*');
        });
      </script></body>`;
    document.body.append(f);
    expect(await ready).to.equal(64);
  });
});
