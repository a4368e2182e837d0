import { expect } from '@esm-bundle/chai';
import { sendKeys, sendMouse } from '@web/test-runner-commands';
import '../tour-player/tour-player.js';
import type { TourPlayer } from './tour-player.component.js';
import { canvasOf, cleanup, eventsOf, firstEvent, makePlayer, readBarcode, real, server, until } from '../../test/helpers.js';

/** The real server's main tour (180 frames; markers Entrance 0, Kitchen 40, Bedroom 100), fully buffered. */
async function readyPlayer(attrs: Record<string, string | boolean> = {}): Promise<TourPlayer> {
  const p = await makePlayer({ 'tour-id': real.main, api: server, ...attrs });
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
    expect(c.getAttribute('aria-valuemax')).to.equal('177');
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
    expect(p.currentFrame).to.equal(177);
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
    const init = (x: number, y: number) => ({ pointerId: 7, pointerType: 'touch', clientX: x, clientY: y, bubbles: true, composed: true, isPrimary: true });
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
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: { id: string; help: string; nodes: { target: unknown }[] }[] }> } }).axe;
    const result = await axe.run(p, { rules: { region: { enabled: false } } });
    expect(result.violations.map((v) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`)).to.deep.equal([]);
  });
});
