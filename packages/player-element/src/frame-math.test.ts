import { expect } from '@esm-bundle/chai';
import {
  canvasSize,
  clampFrame,
  clipFrameCounts,
  clipStarts,
  frameClips,
  locateFrame,
  totalFrames,
  travelPlan,
} from './frame-math.js';
import { drawerBeside, pictureShareWithDrawer, shouldOpenDrawer } from './layout.js';
import { workerCount, batchSize, canDecodeHighRes } from './device.js';
import { parseHostMessage } from './controllers/host-bridge-controller.js';

describe('frame math', () => {
  it('totals clip frame counts minus 1, defaulting unknown counts to 36', () => {
    const counts = clipFrameCounts([
      { index: 1, frameCount: 36 },
      { index: 0, frameCount: null },
      { index: 2, frameCount: 20 },
    ]);
    expect(counts).to.deep.equal([36, 36, 20]);
    expect(totalFrames(counts)).to.equal(91);
    // The last real frame (92 frames: 0..91) is reachable.
    expect(clampFrame(500, 91)).to.equal(91);
    expect(clampFrame(-3, 91)).to.equal(0);
    expect(clampFrame(Number.NaN, 91)).to.equal(0);
  });

  it("gives every tour frame its clip, the same as locateFrame's", () => {
    const counts = [36, 36, 20];
    const starts = clipStarts(counts);
    const clips = frameClips(counts);
    expect(clips.length).to.equal(92);
    for (let f = 0; f < 92; f++) expect(clips[f], `frame ${f}`).to.equal(locateFrame(starts, counts, f).clip);
    expect(frameClips([])).to.have.length(0);
  });

  it('locates a tour frame in its clip', () => {
    const counts = [36, 36, 20];
    const starts = clipStarts(counts);
    expect(locateFrame(starts, counts, 0)).to.deep.equal({ clip: 0, local: 0 });
    expect(locateFrame(starts, counts, 35)).to.deep.equal({ clip: 0, local: 35 });
    expect(locateFrame(starts, counts, 36)).to.deep.equal({ clip: 1, local: 0 });
    expect(locateFrame(starts, counts, 91)).to.deep.equal({ clip: 2, local: 19 });
  });

  it('plans fast travel in ~16.5-frame steps at ~0.002 s per frame', () => {
    const { steps, stepMs } = travelPlan(0, 330);
    expect(steps).to.have.length(20);
    expect(steps.at(-1)).to.equal(330);
    expect(stepMs * steps.length).to.be.closeTo(660, 1);
    expect(travelPlan(100, 0).steps.at(-1)).to.equal(0);
  });

  it('caps the canvas at 650 px and halves large canvases off desktop', () => {
    expect(canvasSize({ width: 1280, height: 720 }, { width: 2000, height: 2000 }, true, 500)).to.deep.equal({
      width: 650,
      height: 366,
    });
    expect(canvasSize({ width: 720, height: 1280 }, { width: 2000, height: 700 }, true, 500)).to.deep.equal({
      width: 394,
      height: 700,
    });
    expect(canvasSize({ width: 720, height: 1280 }, { width: 650, height: 2000 }, false, 500)).to.deep.equal({
      width: 325,
      height: 578,
    });
  });

  it('keeps 80 px under the canvas for the joystick, except in viewports 550 px high or less (joystick in a corner)', () => {
    // A portrait tour on a 390x844 phone (host less the top bar and margins): the joystick goes below the picture.
    expect(canvasSize({ width: 720, height: 1280 }, { width: 374, height: 700 }, false, 844)).to.deep.equal({
      width: 349,
      height: 620,
    });
    expect(canvasSize({ width: 720, height: 1280 }, { width: 374, height: 700 }, false, 550)).to.deep.equal({
      width: 374,
      height: 665,
    });
    // A landscape tour is limited by the width: unchanged.
    expect(canvasSize({ width: 1280, height: 720 }, { width: 374, height: 700 }, false, 844)).to.deep.equal({
      width: 374,
      height: 210,
    });
  });

  it('opens the drawer per the spec rules', () => {
    const base = {
      viewportWidth: 1200,
      hostWidth: 1200,
      hostHeight: 700,
      canvasWidth: 650,
      canvasHeight: 366,
      menuHeight: 48,
      portrait: false,
      liveViewing: false,
    };
    expect(shouldOpenDrawer(base)).to.equal(true);
    expect(shouldOpenDrawer({ ...base, liveViewing: true })).to.equal(false);
    expect(shouldOpenDrawer({ ...base, hostWidth: 600, canvasWidth: 600 })).to.equal(false);
    expect(shouldOpenDrawer({ ...base, viewportWidth: 2600, hostWidth: 600, canvasWidth: 600 })).to.equal(true);
    // The share page's picture fills a 1280x800 page (1166x656): the drawer still opens beside it (1014 px, 87 %).
    expect(
      shouldOpenDrawer({
        ...base,
        viewportWidth: 1280,
        hostWidth: 1280,
        hostHeight: 800,
        canvasWidth: 1166,
        canvasHeight: 656,
        viewportHeight: 800,
      }),
    ).to.equal(true);
    expect(
      shouldOpenDrawer({
        ...base,
        hostWidth: 500,
        canvasWidth: 300,
        canvasHeight: 530,
        hostHeight: 900,
        portrait: true,
      }),
    ).to.equal(true);
  });

  it('puts the drawer beside the picture on a phone on its side, and never opens it where the picture would keep under 80 %', () => {
    // 844x390 (a phone in landscape, joystick in the corner): the picture takes the height (580x326) and the drawer
    // beside it leaves it 498 px wide; below it, it would have left a strip.
    const phone = {
      viewportWidth: 844,
      viewportHeight: 390,
      hostWidth: 844,
      hostHeight: 390,
      canvasWidth: 580,
      canvasHeight: 326,
      menuHeight: 48,
      portrait: false,
      liveViewing: false,
    };
    expect(drawerBeside(844, 390, 390)).to.equal(true);
    expect(drawerBeside(390, 844, 844)).to.equal(false);
    expect(drawerBeside(1000, 1200, 1200)).to.equal(true);
    // A landscape embed in a tall window keeps the drawer below, sized to the room the picture leaves.
    expect(drawerBeside(684, 560, 900)).to.equal(false);
    // The joystick keeps 80 px at the stage's side in so short a window: 498 of 580 px (86 %).
    expect(pictureShareWithDrawer(phone)).to.be.closeTo(498 / 580, 0.001);
    expect(shouldOpenDrawer(phone)).to.equal(true);
    // A small landscape embed on a screen wider than 2500 px: the spec opens the drawer there, but below a 584 px
    // picture it would leave 220 px of it (38 %): it stays closed.
    const embed = {
      ...phone,
      viewportWidth: 2600,
      viewportHeight: 1400,
      hostWidth: 600,
      hostHeight: 400,
      canvasWidth: 584,
      canvasHeight: 329,
    };
    expect(pictureShareWithDrawer(embed)).to.be.below(0.8);
    expect(shouldOpenDrawer(embed)).to.equal(false);
    // A portrait box keeps the drawer below, in the room the picture and joystick leave: the picture keeps its size.
    const portrait = {
      viewportWidth: 500,
      viewportHeight: 1000,
      hostWidth: 390,
      hostHeight: 1000,
      canvasWidth: 374,
      canvasHeight: 665,
      menuHeight: 48,
      portrait: true,
      liveViewing: false,
    };
    expect(pictureShareWithDrawer(portrait)).to.equal(1);
    expect(shouldOpenDrawer(portrait)).to.equal(true);
  });

  it('picks worker counts and batch sizes per device', () => {
    expect(workerCount({ cores: 8, memoryGb: 8, mobile: false, lowEnd: false }, 100)).to.equal(4);
    expect(workerCount({ cores: 2, memoryGb: 8, mobile: false, lowEnd: false }, 100)).to.equal(2);
    expect(workerCount({ cores: 8, memoryGb: 8, mobile: false, lowEnd: false }, 3)).to.equal(3);
    expect(workerCount({ cores: 2, memoryGb: 2, mobile: false, lowEnd: true }, 100)).to.equal(2);
    expect(workerCount({ cores: 8, memoryGb: 3, mobile: true, lowEnd: false }, 100)).to.equal(1);
    expect(workerCount({ cores: 8, memoryGb: 4, mobile: true, lowEnd: false }, 100)).to.equal(2);
    expect(batchSize({ cores: 8, memoryGb: 8, mobile: false, lowEnd: false })).to.equal(20);
    expect(batchSize({ cores: 8, memoryGb: 8, mobile: true, lowEnd: false })).to.equal(10);
    expect(batchSize({ cores: 2, memoryGb: 2, mobile: false, lowEnd: true })).to.equal(5);
    expect(canDecodeHighRes({ cores: 2, memoryGb: 2, mobile: false, lowEnd: true })).to.equal(false);
  });

  it('parses only well-formed host messages', () => {
    expect(parseHostMessage({ type: 'roomwalk_scroll', frameIndex: 3 })).to.deep.equal({
      type: 'scroll',
      frameIndex: 3,
    });
    expect(parseHostMessage({ type: 'roomwalk_marker', data: { frameIndex: 9 } })).to.deep.equal({
      type: 'marker',
      frameIndex: 9,
    });
    expect(parseHostMessage({ type: 'roomwalk_scroll', frameIndex: Infinity })).to.equal(null);
    expect(parseHostMessage({ type: 'roomwalk_scroll', frameIndex: -1 })).to.equal(null);
    expect(parseHostMessage(null)).to.equal(null);
    // A room by name (examples/iframe.html's Kitchen button): trimmed; empty or absurdly long names are ignored.
    expect(parseHostMessage({ type: 'roomwalk_marker', room: ' Kitchen ' })).to.deep.equal({
      type: 'room',
      room: 'Kitchen',
    });
    expect(parseHostMessage({ type: 'roomwalk_marker', room: ' ' })).to.equal(null);
    expect(parseHostMessage({ type: 'roomwalk_marker', room: 'x'.repeat(201) })).to.equal(null);
    expect(parseHostMessage({ type: 'roomwalk_scroll', room: 'Kitchen' })).to.equal(null);
  });
});
