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

  it('moves one frame per 80 px of joystick drag and hides the hint at frame 5', async () => {
    const p = await readyPlayer();
    const joy = p.shadowRoot!.querySelector('.joystick') as HTMLElement;
    expect(joy.querySelector('.hint')?.textContent).to.equal('drag me');
    const r = joy.getBoundingClientRect();
    const x = Math.round(r.left + r.width / 2);
    const y = Math.round(r.top + r.height / 2);
    await sendMouse({ type: 'move', position: [x, y] });
    await sendMouse({ type: 'down' });
    await sendMouse({ type: 'move', position: [x + 170, y] });
    expect(p.currentFrame).to.equal(2);
    await p.updateComplete;
    expect(joy.querySelector('.hint')).to.exist;
    await sendMouse({ type: 'move', position: [x + 300, y - 110] });
    await sendMouse({ type: 'up' });
    expect(p.currentFrame).to.equal(5);
    await p.updateComplete;
    expect(p.shadowRoot!.querySelector('.joystick .hint')).to.equal(null);
    expect(frameEvents(p).at(-1)).to.deep.equal({ frame: 5, source: 'drag' });
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

  it('follows touch drags on the canvas', async () => {
    const p = await readyPlayer();
    const c = canvasOf(p);
    const r = c.getBoundingClientRect();
    const init = (x: number, y: number) => ({ pointerId: 7, pointerType: 'touch', clientX: x, clientY: y, bubbles: true, composed: true, isPrimary: true });
    c.dispatchEvent(new PointerEvent('pointerdown', init(r.left + 300, r.top + 200)));
    c.dispatchEvent(new PointerEvent('pointermove', init(r.left + 300, r.top + 200 - 245)));
    c.dispatchEvent(new PointerEvent('pointerup', init(r.left + 300, r.top - 45)));
    expect(p.currentFrame).to.equal(3);
    expect(frameEvents(p).at(-1)).to.deep.equal({ frame: 3, source: 'touch' });
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
