import { expect } from '@esm-bundle/chai';
import { sendKeys, sendMouse } from '@web/test-runner-commands';
import '../tour-player/tour-player.js';
import type { TourPlayer } from './tour-player.component.js';
import {
  canvasOf,
  cleanup,
  eventsOf,
  firstEvent,
  makePlayer,
  readBarcode,
  real,
  server,
  setViewport,
  until,
} from '../../test/helpers.js';

/** The real server's main tour (180 frames; markers Entrance 0, Kitchen 40, Bedroom 100), fully buffered. */
async function readyPlayer(
  attrs: Record<string, string | boolean> = {},
  size?: { width: number; height: number },
): Promise<TourPlayer> {
  const p = await makePlayer({ 'tour-id': real.main, api: server, ...attrs }, {}, size);
  await firstEvent(p, 'tour-ready');
  await until(() => p.loadedFrameCount >= p.totalFrames, 'all clips buffered');
  await p.updateComplete;
  return p;
}

const nextFrames = (n: number) =>
  new Promise<void>((r) =>
    (function f(i: number) {
      i ? requestAnimationFrame(() => f(i - 1)) : r();
    })(n),
  );

function frameEvents(p: TourPlayer) {
  return eventsOf<CustomEvent>(p, 'tour-frame-change').map((e) => e.detail as { frame: number; source: string });
}

describe('<tour-player> interaction', () => {
  afterEach(cleanup);

  it('is a slider to assistive technology with the room name as value text', async () => {
    const p = await readyPlayer();
    const c = canvasOf(p);
    expect(c.getAttribute('role')).to.equal('slider');
    expect(c.getAttribute('tabindex')).to.equal('0');
    expect(c.getAttribute('aria-valuemin')).to.equal('0');
    // 180 real frames: the last one, 179, is the slider's maximum (End lands on it).
    expect(c.getAttribute('aria-valuemax')).to.equal('179');
    expect(c.getAttribute('aria-valuetext')).to.equal('Entrance');
    await p.goToFrame(45);
    await p.updateComplete;
    expect(c.getAttribute('aria-valuenow')).to.equal('45');
    expect(c.getAttribute('aria-valuetext')).to.equal('Kitchen');
  });

  it('steps with arrow keys, jumps with Home/End and between markers with Page Up/Down', async () => {
    const p = await readyPlayer();
    canvasOf(p).focus();
    await sendKeys({ press: 'ArrowRight' });
    expect(p.currentFrame).to.equal(1);
    await sendKeys({ press: 'ArrowUp' });
    await sendKeys({ press: 'ArrowLeft' });
    expect(p.currentFrame).to.equal(1);
    await until(() => readBarcode(canvasOf(p)) === 1, 'frame 1 drawn');
    expect(frameEvents(p).map((e) => e.source)).to.deep.equal(['keyboard', 'keyboard', 'keyboard']);
    await sendKeys({ press: 'End' });
    expect(p.currentFrame).to.equal(179);
    await until(() => readBarcode(canvasOf(p)) === 179, 'the last real frame drawn');
    await sendKeys({ press: 'Home' });
    expect(p.currentFrame).to.equal(0);
    // Page Up travels to the next marker (Kitchen at 40), Page Down back to the previous one.
    await sendKeys({ press: 'PageUp' });
    await until(() => p.currentFrame === 40 && readBarcode(canvasOf(p)) === 40, 'travel to Kitchen');
    expect(p.activeMarker?.name).to.equal('Kitchen');
  });

  it('does not fire frame-change when code sets the frame', async () => {
    const p = await readyPlayer();
    await p.goToFrame(20);
    expect(frameEvents(p)).to.have.length(0);
  });

  it('moves while the joystick is held off centre (rate control), hides the hint at frame 5 and stops on release', async () => {
    const p = await readyPlayer();
    const joy = p.shadowRoot!.querySelector('.joystick') as HTMLElement;
    expect(joy.querySelector('.hint')?.textContent).to.equal('drag me');
    const r = joy.getBoundingClientRect();
    const x = Math.round(r.left + r.width / 2);
    const y = Math.round(r.top + r.height / 2);
    await sendMouse({ type: 'move', position: [x, y] });
    await sendMouse({ type: 'down' });
    // 4 px off centre is the rest zone: nothing moves.
    await sendMouse({ type: 'move', position: [x + 4, y] });
    await nextFrames(5);
    expect(p.currentFrame).to.equal(0);
    // 160 px right: 2 frames a refresh while the pointer stays where it is.
    await sendMouse({ type: 'move', position: [x + 160, y] });
    await until(() => p.currentFrame >= 40, 'the joystick keeps moving while held still');
    await p.updateComplete;
    expect(p.shadowRoot!.querySelector('.joystick .hint')).to.equal(null);
    // Up is forward too; back left of centre it goes backwards.
    await sendMouse({ type: 'move', position: [x - 80, y] });
    const at = p.currentFrame;
    await until(() => p.currentFrame < at - 5, 'backwards left of centre');
    await sendMouse({ type: 'up' });
    const released = p.currentFrame;
    await nextFrames(10);
    expect(p.currentFrame).to.equal(released);
    expect(frameEvents(p).at(-1)).to.deep.equal({ frame: released, source: 'drag' });
  });

  it('scales wheel input by 1.5', async () => {
    const p = await readyPlayer();
    const stage = p.shadowRoot!.querySelector('.stage')!;
    stage.dispatchEvent(new WheelEvent('wheel', { deltaY: 100, bubbles: true, cancelable: true }));
    // 100 px * 1.5 / 20 px per frame = 7.5 frames: 7 now, the half carried over.
    expect(p.currentFrame).to.equal(7);
    stage.dispatchEvent(new WheelEvent('wheel', { deltaY: 100, bubbles: true, cancelable: true }));
    expect(p.currentFrame).to.equal(15);
    expect(frameEvents(p).at(-1)?.source).to.equal('wheel');
    await until(() => readBarcode(canvasOf(p)) === 15, 'frame 15 drawn');
  });

  it('follows touch drags on the canvas directly, 4 px a frame, only as far as frames are decoded', async () => {
    const p = await readyPlayer();
    const c = canvasOf(p);
    const r = c.getBoundingClientRect();
    const init = (x: number, y: number) => ({
      pointerId: 7,
      pointerType: 'touch',
      clientX: x,
      clientY: y,
      bubbles: true,
      composed: true,
      isPrimary: true,
    });
    c.dispatchEvent(new PointerEvent('pointerdown', init(r.left + 300, r.top + 200)));
    // 42 px up (forward): frame 10, painted from its own decoded pixels at every step on the way.
    c.dispatchEvent(new PointerEvent('pointermove', init(r.left + 300, r.top + 158)));
    const shown: number[] = [];
    p.addEventListener('tour-frame-change', () => shown.push(p.currentFrame));
    await until(() => p.currentFrame === 10 && readBarcode(c) === 10, 'frame 10 shown');
    // The finger rests there past the 100 ms the release velocity looks back, then lifts: no momentum.
    const moved = performance.now();
    while (performance.now() - moved < 150) await nextFrames(1);
    c.dispatchEvent(new PointerEvent('pointerup', init(r.left + 300, r.top + 158)));
    await nextFrames(10);
    expect(p.currentFrame).to.equal(10);
    expect(frameEvents(p).at(-1)).to.deep.equal({ frame: 10, source: 'touch' });
    expect(shown.every((f, i) => i === 0 || f > shown[i - 1]!)).to.equal(true);
  });

  it('paints a drag step as the look-ahead found it: the paint does not ask the frames again', async () => {
    const p = await readyPlayer();
    const inner = p as unknown as {
      decoder: { frames: { state: { thumbnails: unknown[] } } };
      ctx: { frames: Record<'drawable' | 'drawables', (...a: unknown[]) => unknown> };
      canvas: { paint(): void; painter: { lead: { frames: number } } };
    };
    // Every clip's thumbnail is in, and a paint asked for before the last one came has run (a thumbnail changes the
    // frames: that paint rightly asks again).
    await until(() => inner.decoder.frames.state.thumbnails.filter(Boolean).length === 5, 'thumbnails');
    await nextFrames(2);
    const { frames } = inner.ctx;
    const { canvas } = inner;
    let painting = false;
    let asked = 0;
    let paints = 0;
    let leadGrew = 0;
    let depth = 0;
    for (const name of ['drawable', 'drawables'] as const) {
      const f = frames[name]!.bind(frames);
      frames[name] = (...a) => {
        // One question each (drawables answers through drawable).
        if (painting && !depth) asked++;
        depth++;
        try {
          return f(...a);
        } finally {
          depth--;
        }
      };
    }
    const paint = canvas.paint.bind(canvas);
    canvas.paint = () => {
      const lead = canvas.painter.lead.frames;
      painting = true;
      paint();
      painting = false;
      paints++;
      // A late bitmap grows the paint lead: that paint asks once for the frames now within it.
      if (canvas.painter.lead.frames !== lead) leadGrew++;
    };
    const c = canvasOf(p);
    const r = c.getBoundingClientRect();
    const init = (y: number) => ({
      pointerId: 9,
      pointerType: 'touch',
      clientX: r.left + 300,
      clientY: y,
      bubbles: true,
      composed: true,
      isPrimary: true,
    });
    c.dispatchEvent(new PointerEvent('pointerdown', init(r.top + 200)));
    c.dispatchEvent(new PointerEvent('pointermove', init(r.top + 158)));
    await until(() => p.currentFrame === 10 && readBarcode(c) === 10, 'frame 10 shown');
    c.dispatchEvent(new PointerEvent('pointercancel', init(r.top + 158)));
    expect(paints).to.be.greaterThan(0);
    expect(asked).to.be.at.most(leadGrew);
  });

  it('takes swipes anywhere on the stage, the picture following the finger (left is forward), and says so once', async () => {
    const p = await readyPlayer();
    const stage = p.shadowRoot!.querySelector('.stage') as HTMLElement;
    const c = canvasOf(p).getBoundingClientRect();
    const s = stage.getBoundingClientRect();
    // A point of the empty stage beside the picture (the 1000x600 player's picture is 650 px wide, centred).
    const [x, y] = [Math.round((s.left + c.left) / 2), Math.round(c.top + c.height / 2)];
    expect(x).to.be.below(c.left);
    const init = (px: number, id: number) => ({
      pointerId: id,
      pointerType: 'touch',
      clientX: px,
      clientY: y,
      bubbles: true,
      composed: true,
      isPrimary: true,
    });
    const swipe = async (dx: number, id: number) => {
      stage.dispatchEvent(new PointerEvent('pointerdown', init(x, id)));
      stage.dispatchEvent(new PointerEvent('pointermove', init(x + dx, id)));
      // The finger rests past the 100 ms the release velocity looks back, then lifts: no momentum.
      const moved = performance.now();
      while (performance.now() - moved < 150) await nextFrames(1);
      stage.dispatchEvent(new PointerEvent('pointerup', init(x + dx, id)));
    };
    expect(p.shadowRoot!.querySelector('.direction-hint')).to.equal(null);
    // 40 px to the left: 10 frames forward.
    await swipe(-40, 11);
    await until(() => p.currentFrame === 10 && readBarcode(canvasOf(p)) === 10, 'frame 10 after a pull to the left');
    await p.updateComplete;
    const hint = p.shadowRoot!.querySelector('.direction-hint')!;
    expect(hint.getAttribute('role')).to.equal('status');
    expect(hint.textContent).to.contain('Swipe left to go forward, right to go back');
    // It goes by itself, and the next swipes do not bring it back.
    await until(() => !p.shadowRoot!.querySelector('.direction-hint'), 'the hint hides itself', 6000);
    await swipe(20, 12);
    await until(() => p.currentFrame === 5, 'frame 5 after a pull to the right');
    await p.updateComplete;
    expect(p.shadowRoot!.querySelector('.direction-hint')).to.equal(null);
    expect(frameEvents(p).at(-1)).to.deep.equal({ frame: 5, source: 'touch' });
  });

  it('shows a notice above the joystick, never over it: joystick below the picture and in the corner of a short window', async () => {
    for (const viewport of [
      { width: 800, height: 600 },
      { width: 844, height: 390 },
    ]) {
      await setViewport(viewport);
      const p = await readyPlayer({}, viewport);
      // The drawer forwards its notices (a marker's name, "Marker updated") to the player.
      if (!p.shadowRoot!.querySelector('tour-markers-drawer'))
        (p.shadowRoot!.querySelector('.drawer-toggle') as HTMLButtonElement).click();
      await p.updateComplete;
      p.shadowRoot!.querySelector('tour-markers-drawer')!.dispatchEvent(
        new CustomEvent('tour-notice', {
          detail: { message: 'Please enter a marker name', variant: 'warning' },
          bubbles: true,
          composed: true,
        }),
      );
      await p.updateComplete;
      const n = p.shadowRoot!.querySelector('[part="notice"]')!.getBoundingClientRect();
      const j = p.shadowRoot!.querySelector('.joystick')!.getBoundingClientRect();
      const overlap =
        Math.max(0, Math.min(n.right, j.right) - Math.max(n.left, j.left)) *
        Math.max(0, Math.min(n.bottom, j.bottom) - Math.max(n.top, j.top));
      expect(
        overlap,
        `${viewport.width}x${viewport.height}: notice ${JSON.stringify(n)} over joystick ${JSON.stringify(j)}`,
      ).to.equal(0);
      expect(n.bottom, `${viewport.width}x${viewport.height}: the notice is above the joystick`).to.be.at.most(j.top);
      cleanup();
    }
    await setViewport({ width: 800, height: 600 });
  });

  it('passes an axe accessibility check', async () => {
    const p = await readyPlayer();
    if (!(window as unknown as { axe?: unknown }).axe) {
      await new Promise((resolve, reject) => {
        const s = document.createElement('script');
        s.src = '/node_modules/axe-core/axe.min.js';
        s.onload = resolve;
        s.onerror = reject;
        document.head.append(s);
      });
    }
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: unknown,
            opts: unknown,
          ): Promise<{ violations: { id: string; help: string; nodes: { target: unknown }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(p, { rules: { region: { enabled: false } } });
    expect(
      result.violations.map((v) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`),
    ).to.deep.equal([]);
  });
});
