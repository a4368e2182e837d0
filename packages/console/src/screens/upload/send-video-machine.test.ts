/**
 * The upload race's state machine, driven state by state with events as its driver (send-video.ts) would feed them:
 * every move in the table, the races among them (the conversion finishing, failing or standing still against the
 * original's upload; a cancel in each state; a part lost mid-upload), and what the answer tells the page (a converted
 * tour is followed by its original, for the photos). The last test checks that every row of the table was driven.
 */
import { describe, expect, it } from 'vitest';
import type { ConversionStart } from './convert-types.js';
import { CLIP_FORMAT, raceVerdict } from './convert-rules.js';
import type { UploadProgress } from './multipart-upload.js';
import { UploadError } from './upload-error.js';
import {
  next,
  startMachine,
  tickMs,
  TRANSITIONS,
  type SendEffect,
  type SendEvent,
  type SendMachine,
  type Step,
} from './send-video-machine.js';

/** Every (state, event) the tests below sent, to prove the table is driven whole. */
const driven = new Set<string>();
function send(m: SendMachine, event: SendEvent): Step {
  driven.add(`${m.state.name}.${event.type}`);
  return next(m, event);
}
/** Sends events in turn; answers the last step with every effect asked on the way. */
function sendAll(m: SendMachine, ...events: SendEvent[]): Step {
  return events.reduce<Step>(
    (step, e) => {
      const s = send(step.machine, e);
      return { machine: s.machine, effects: [...step.effects, ...s.effects] };
    },
    { machine: m, effects: [] },
  );
}

const FILE_BYTES = 400_000_000;
const start: ConversionStart = {
  durationSeconds: 60,
  decoder: 'hardware',
  decoderHint: 'prefer-hardware',
  encoder: 'hardware',
  size: { width: 1080, height: 1920 },
  bitrate: CLIP_FORMAT.bitrate,
  codec: 'hvc1.1.6.L153.90',
};
const progress = (bytesUploaded: number, bytesPerSecond: number | null = null): UploadProgress => ({
  bytesUploaded,
  bytesTotal: FILE_BYTES,
  percent: Math.floor((bytesUploaded / FILE_BYTES) * 100),
  bytesPerSecond,
  secondsLeft: null,
  resuming: false,
});
const cut = new UploadError('NETWORK', 'The connection was lost during the upload.');

const log = (line: string): SendEffect => ({ run: 'log', line });
const stop = (side: 'original' | 'conversion' | 'stream'): SendEffect => ({ run: 'stop', side });
const STOP_ALL = [stop('original'), stop('conversion'), stop('stream')];
const CONVERTING_LOG = `converting ${start.codec} to 1080x1920 with the hardware decoder (asked with 'prefer-hardware') and the hardware encoder`;

const idle = () => startMachine({ fileBytes: FILE_BYTES, stallMs: 30_000, now: 0 });
const checking = () => send(idle(), { type: 'begin', convertible: true }).machine;
const opening = () => send(checking(), { type: 'checked', start }).machine;
/** Racing since t = 1000 ms, a quarter converted at 2000 ms. */
const racing = () =>
  sendAll(
    opening(),
    { type: 'streamOpened', partSize: 8_000_000, now: 1000 },
    { type: 'conversionProgress', fraction: 0.25, now: 2000 },
  ).machine;
/** Kept at t = 4000 ms: a slow uplink (1 MB/s) makes the mezzanine sooner. */
const converting = () =>
  sendAll(racing(), { type: 'originalProgress', progress: progress(3_000_000, 1_000_000) }, { type: 'tick', now: 4000 })
    .machine;
const finishing = () => send(converting(), { type: 'conversionDone', size: 40_000_000, now: 9000 }).machine;
const keptOriginal = () => send(checking(), { type: 'conversionFailed', declined: 'no decoder', error: null }).machine;

// In order, never shuffled: the last test checks that the ones above drove every move of the table.
describe('the upload race, state by state', { shuffle: false }, () => {
  it('idle: a browser that can convert checks the source while the original uploads; one that cannot sends the original', () => {
    const convertible = send(idle(), { type: 'begin', convertible: true });
    expect(convertible.machine.state).toEqual({ name: 'checking' });
    expect(convertible.effects).toEqual([{ run: 'startConversion' }, { run: 'startOriginal' }]);
    const not = send(idle(), { type: 'begin', convertible: false });
    expect(not.machine.state).toEqual({ name: 'original' });
    expect(not.effects).toEqual([log('original: this browser has no WebCodecs in workers'), { run: 'startOriginal' }]);
    // Nothing else moves a machine that has not begun.
    expect(send(idle(), { type: 'cancel' }).machine.state).toEqual({ name: 'idle' });
  });

  describe('checking', () => {
    it("shows the original's upload (its Resuming… too) and notes the conversion's pace without showing it", () => {
      const p = { ...progress(10), resuming: true };
      const shown = send(checking(), { type: 'originalProgress', progress: p });
      expect(shown.effects).toEqual([{ run: 'show', progress: { phase: 'uploading', ...p } }]);
      expect(shown.machine.context.original).toEqual(p);
      const paced = send(checking(), { type: 'conversionProgress', fraction: 0.1, now: 500 });
      expect(paced.effects).toEqual([]);
      expect(paced.machine.context).toMatchObject({ converted: 0.1, movedAt: 500 });
    });

    it('once the device can convert, shows the conversion, logs how, and opens the mezzanine’s upload', () => {
      const m = send(checking(), { type: 'conversionProgress', fraction: 0.034, now: 1 }).machine;
      const step = send(m, { type: 'checked', start });
      expect(step.machine.state).toEqual({ name: 'opening', start });
      expect(step.effects).toEqual([
        { run: 'show', progress: { phase: 'preparing', percent: 3 } },
        log(CONVERTING_LOG),
        { run: 'openStream' },
      ]);
    });

    it('a device that declines keeps the original and says why; any other failure of the check ends the upload', () => {
      const m = send(checking(), { type: 'originalProgress', progress: progress(5) }).machine;
      const declined = send(m, { type: 'conversionFailed', declined: 'HDR source (pq)', error: null });
      expect(declined.machine.state).toEqual({ name: 'original' });
      expect(declined.effects).toEqual([
        log('original: HDR source (pq)'),
        stop('conversion'),
        stop('stream'),
        { run: 'show', progress: { phase: 'uploading', ...progress(5) } },
      ]);
      const boom = new Error('worker gone');
      const failed = send(checking(), { type: 'conversionFailed', declined: null, error: boom });
      expect(failed.machine.state).toEqual({ name: 'failed', error: boom });
      expect(failed.effects).toEqual(STOP_ALL);
    });

    it('an original uploaded before the check ends is the answer; its failure ends the upload and stops the worker', () => {
      const done = send(checking(), { type: 'originalDone', key: 'uploads/o.mov' });
      expect(done.machine.state).toEqual({ name: 'done', key: 'uploads/o.mov', converted: false });
      expect(done.effects).toContainEqual(
        log('original: it finished uploading before the device had checked the source'),
      );
      expect(done.effects).toContainEqual(stop('conversion'));
      const failed = send(checking(), { type: 'originalFailed', error: cut });
      expect(failed.machine.state).toEqual({ name: 'failed', error: cut });
      expect(failed.effects).toEqual(STOP_ALL);
    });

    it('cancel stops everything', () => {
      const step = send(checking(), { type: 'cancel' });
      expect(step.machine.state).toEqual({ name: 'cancelled' });
      expect(step.effects).toEqual(STOP_ALL);
    });
  });

  describe('opening the mezzanine’s upload', () => {
    it('shows the conversion, notes the original quietly, and starts the race when the upload opens', () => {
      const shown = send(opening(), { type: 'conversionProgress', fraction: 0.125, now: 700 });
      expect(shown.effects).toEqual([{ run: 'show', progress: { phase: 'preparing', percent: 12 } }]);
      const quiet = send(opening(), { type: 'originalProgress', progress: progress(7) });
      expect(quiet.effects).toEqual([]);
      expect(quiet.machine.context.original).toEqual(progress(7));
      const opened = send(opening(), { type: 'streamOpened', partSize: 8_000_000, now: 1000 });
      expect(opened.machine.state).toEqual({ name: 'racing', start, partSize: 8_000_000, began: 1000 });
      expect(opened.effects).toEqual([{ run: 'convert' }]);
    });

    it("a refused upload keeps the original with the server's words", () => {
      const step = send(opening(), { type: 'streamRefused', error: new Error('You have 5 unfinished uploads.') });
      expect(step.machine.state).toEqual({ name: 'original' });
      expect(step.effects[0]).toEqual(
        log("original: the mezzanine's upload was refused: You have 5 unfinished uploads."),
      );
    });

    it('the original done first is the answer; its failure waits for the verdict; cancel stops everything', () => {
      const done = send(opening(), { type: 'originalDone', key: 'uploads/o.mov' });
      expect(done.machine.state).toEqual({ name: 'done', key: 'uploads/o.mov', converted: false });
      expect(done.effects).toEqual([log('original: it finished uploading first'), stop('conversion'), stop('stream')]);
      const failed = send(opening(), { type: 'originalFailed', error: cut });
      expect(failed.machine.state.name).toBe('opening');
      expect(failed.machine.context.originalFailure).toEqual({ error: cut });
      expect(send(opening(), { type: 'cancel' })).toEqual({
        machine: { state: { name: 'cancelled' }, context: opening().context },
        effects: STOP_ALL,
      });
    });
  });

  describe('racing', () => {
    it('ticks every 250 ms; shows the conversion; notes the original, and parts held for room', () => {
      expect(tickMs(racing())).toBe(250);
      expect(send(racing(), { type: 'conversionProgress', fraction: 0.5, now: 2500 }).effects).toEqual([
        { run: 'show', progress: { phase: 'preparing', percent: 50 } },
      ]);
      const noted = send(racing(), { type: 'originalProgress', progress: progress(9) });
      expect(noted.effects).toEqual([]);
      expect(noted.machine.context.original).toEqual(progress(9));
      const held = send(racing(), { type: 'partWaiting' }).machine;
      expect(held.context.held).toBe(true);
      const taken = send(held, { type: 'partTaken', stored: true, now: 2600 }).machine;
      expect(taken.context).toMatchObject({ held: false, movedAt: 2600, partsHanded: 1 });
      // A part the upload refused is not counted as handed.
      expect(send(held, { type: 'partTaken', stored: false, now: 2600 }).machine.context.partsHanded).toBe(0);
    });

    it('waits for the first seconds, then keeps the side that ends sooner', () => {
      const slow = send(racing(), { type: 'originalProgress', progress: progress(3_000_000, 1_000_000) }).machine;
      expect(send(slow, { type: 'tick', now: 3900 })).toEqual({ machine: slow, effects: [] });
      const kept = send(slow, { type: 'tick', now: 4000 });
      // The rule (convert-rules.ts) is asked with what the race measured: 3 s in, a quarter converted, 1 MB/s up.
      const verdict = raceVerdict({
        elapsedSeconds: 3,
        converted: 0.25,
        durationSeconds: 60,
        originalBytes: FILE_BYTES,
        uploadedBytes: 3_000_000,
        bytesPerSecond: 1_000_000,
        targetBitrate: CLIP_FORMAT.bitrate,
      });
      if (verdict.choice !== 'convert') throw new Error(`the race should keep the conversion here: ${verdict.choice}`);
      expect(kept.machine.state).toEqual({ name: 'converting', partSize: 8_000_000, began: 1000 });
      expect(kept.effects).toEqual([log(`convert: ${verdict.reason}`), stop('original'), { run: 'releaseParts' }]);
      const fast = send(racing(), { type: 'originalProgress', progress: progress(399_000_000, 50_000_000) }).machine;
      const original = send(fast, { type: 'tick', now: 4000 });
      expect(original.machine.state).toEqual({ name: 'original' });
      expect(original.effects[0]).toMatchObject({ run: 'log', line: expect.stringMatching(/^original: converting /) });
      expect(original.effects).toContainEqual({
        run: 'show',
        progress: { phase: 'uploading', ...progress(399_000_000, 50_000_000) },
      });
    });

    it('an original that failed during the race is the error once the verdict keeps it, and moot if it does not', () => {
      const m = send(racing(), { type: 'originalFailed', error: cut }).machine;
      expect(m.state.name).toBe('racing');
      const fast = send(m, { type: 'originalProgress', progress: progress(399_000_000, 50_000_000) }).machine;
      expect(send(fast, { type: 'tick', now: 4000 }).machine.state).toEqual({ name: 'failed', error: cut });
      const slow = send(m, { type: 'originalProgress', progress: progress(3_000_000, 1_000_000) }).machine;
      const kept = send(slow, { type: 'tick', now: 4000 }).machine;
      expect(kept.state.name).toBe('converting');
      // Given up later, the conversion sends the original again from scratch: the old failure is forgotten.
      const again = send(kept, { type: 'tick', now: 40_000 }).machine;
      expect(again.state).toEqual({ name: 'original' });
      expect(send(again, { type: 'originalDone', key: 'uploads/o.mov' }).machine.state.name).toBe('done');
    });

    it('the conversion finishing first is kept and completed at once', () => {
      const m = sendAll(racing(), { type: 'partWaiting' }, { type: 'partTaken', stored: true, now: 2100 }).machine;
      const step = send(m, { type: 'conversionDone', size: 10_000_000, now: 3500 });
      expect(step.machine.state).toEqual({ name: 'finishing' });
      expect(step.effects).toEqual([
        log('convert: the conversion finished first'),
        stop('original'),
        { run: 'releaseParts' },
        log(
          'converted: 10000000 bytes, 2.5 % of the original, in 2.5 s; 1 of 2 parts handed to the upload while converting',
        ),
        { run: 'finishParts', size: 10_000_000 },
      ]);
    });

    it('the conversion failing during the race keeps the original, saying how it failed', () => {
      const declined = send(racing(), { type: 'conversionFailed', declined: 'the decoder broke', error: null });
      expect(declined.machine.state).toEqual({ name: 'original' });
      expect(declined.effects[0]).toEqual(log('original: conversion failed: the decoder broke'));
      const other = send(racing(), { type: 'conversionFailed', declined: null, error: new Error('?') });
      expect(other.effects[0]).toEqual(log('original: conversion stopped'));
    });

    it('the original done first is the answer; cancel stops everything', () => {
      const done = send(racing(), { type: 'originalDone', key: 'uploads/o.mov' });
      expect(done.machine.state).toEqual({ name: 'done', key: 'uploads/o.mov', converted: false });
      expect(done.effects[0]).toEqual(log('original: it finished uploading first'));
      expect(send(racing(), { type: 'cancel' }).effects).toEqual(STOP_ALL);
    });

    it("ignores what only another state reads (the mezzanine's upload progress before the verdict)", () => {
      const m = racing();
      expect(send(m, { type: 'streamProgress', progress: progress(1) })).toEqual({ machine: m, effects: [] });
    });
  });

  describe('converting (the conversion kept)', () => {
    it('ticks for the watchdog; shows the conversion; counts the parts taken while converting', () => {
      expect(tickMs(converting())).toBe(1000);
      expect(tickMs({ ...converting(), context: { ...converting().context, stallMs: 400 } })).toBe(400);
      expect(send(converting(), { type: 'conversionProgress', fraction: 0.6, now: 5000 }).effects).toEqual([
        { run: 'show', progress: { phase: 'preparing', percent: 60 } },
      ]);
      const m = sendAll(converting(), { type: 'partWaiting' }, { type: 'partTaken', stored: true, now: 5000 }).machine;
      expect(m.context).toMatchObject({ held: false, movedAt: 5000, partsHanded: 1 });
    });

    it('a conversion standing still past stallMs is given up and the original sent again from its first part', () => {
      // The last move was at 2000 ms.
      expect(send(converting(), { type: 'tick', now: 32_000 }).machine.state.name).toBe('converting');
      const step = send(converting(), { type: 'tick', now: 32_001 });
      expect(step.machine.state).toEqual({ name: 'original' });
      expect(step.machine.context.original).toBeNull();
      expect(step.effects).toEqual([
        stop('conversion'),
        stop('stream'),
        log('original: conversion failed after the verdict: no progress for 30 s'),
        { run: 'startOriginal' },
      ]);
    });

    it('a conversion held back by a slow upload (a part waiting for room) is not stalled', () => {
      const held = send(converting(), { type: 'partWaiting' }).machine;
      expect(send(held, { type: 'tick', now: 100_000 }).machine.state.name).toBe('converting');
    });

    it('finishing converting completes the upload; failing sends the original again, or ends the upload', () => {
      const done = send(converting(), { type: 'conversionDone', size: 40_000_000, now: 9000 });
      expect(done.machine.state).toEqual({ name: 'finishing' });
      expect(done.effects).toEqual([
        log(
          'converted: 40000000 bytes, 10.0 % of the original, in 8.0 s; 0 of 5 parts handed to the upload while converting',
        ),
        { run: 'finishParts', size: 40_000_000 },
      ]);
      const declined = send(converting(), { type: 'conversionFailed', declined: 'encoder error', error: null });
      expect(declined.machine.state).toEqual({ name: 'original' });
      expect(declined.effects).toContainEqual(log('original: conversion failed after the verdict: encoder error'));
      expect(declined.effects).toContainEqual({ run: 'startOriginal' });
      const boom = new Error('?');
      expect(send(converting(), { type: 'conversionFailed', declined: null, error: boom }).machine.state).toEqual({
        name: 'failed',
        error: boom,
      });
    });

    it("a part lost mid-upload (the connection gone for good) is the user's error, not the device's", () => {
      const step = send(converting(), { type: 'partsLost', error: cut });
      expect(step.machine.state).toEqual({ name: 'failed', error: cut });
      expect(step.effects).toEqual(STOP_ALL);
      // The worker's own failure, which follows, changes nothing.
      expect(send(step.machine, { type: 'conversionFailed', declined: 'onPart failed', error: null }).machine).toBe(
        step.machine,
      );
    });

    it('cancel stops everything', () => {
      expect(send(converting(), { type: 'cancel' }).effects).toEqual(STOP_ALL);
    });
  });

  describe('finishing', () => {
    it('shows the last parts going up, and answers the mezzanine: the original then follows, for the photos', () => {
      expect(tickMs(finishing())).toBeNull();
      const p = progress(30_000_000);
      expect(send(finishing(), { type: 'streamProgress', progress: p }).effects).toEqual([
        { run: 'show', progress: { phase: 'uploading', ...p } },
      ]);
      const done = send(finishing(), { type: 'finished', key: 'uploads/m.mp4' });
      // `converted` is what the page reads to send the original after the tour (original-follows.ts).
      expect(done.machine.state).toEqual({ name: 'done', key: 'uploads/m.mp4', converted: true });
      expect(done.effects).toEqual([]);
    });

    it('a failed completion, a part lost, or cancel ends it and deletes the parts', () => {
      for (const e of [
        { type: 'finishFailed', error: cut },
        { type: 'partsLost', error: cut },
      ] as const) {
        const step = send(finishing(), e);
        expect(step.machine.state).toEqual({ name: 'failed', error: cut });
        expect(step.effects).toEqual(STOP_ALL);
      }
      expect(send(finishing(), { type: 'cancel' }).machine.state).toEqual({ name: 'cancelled' });
    });
  });

  describe('original (kept, or sent again)', () => {
    it('shows its upload and answers its key: no original follows a tour made from the original', () => {
      expect(tickMs(keptOriginal())).toBeNull();
      const p = progress(100, 2000);
      expect(send(keptOriginal(), { type: 'originalProgress', progress: p }).effects).toEqual([
        { run: 'show', progress: { phase: 'uploading', ...p } },
      ]);
      expect(send(keptOriginal(), { type: 'originalDone', key: 'uploads/o.mov' }).machine.state).toEqual({
        name: 'done',
        key: 'uploads/o.mov',
        converted: false,
      });
    });

    it('its failure is the error; cancel stops everything', () => {
      expect(send(keptOriginal(), { type: 'originalFailed', error: cut }).machine.state).toEqual({
        name: 'failed',
        error: cut,
      });
      expect(send(keptOriginal(), { type: 'cancel' }).effects).toEqual(STOP_ALL);
    });
  });

  it('the ends take no more events', () => {
    const ends = [
      send(keptOriginal(), { type: 'originalDone', key: 'k' }).machine,
      send(keptOriginal(), { type: 'originalFailed', error: cut }).machine,
      send(keptOriginal(), { type: 'cancel' }).machine,
    ];
    for (const m of ends) {
      expect(tickMs(m)).toBeNull();
      for (const e of [{ type: 'cancel' }, { type: 'originalDone', key: 'x' }, { type: 'tick', now: 1e9 }] as const)
        expect(send(m, e)).toEqual({ machine: m, effects: [] });
    }
  });

  it('every move in the table was driven above', () => {
    const table = Object.entries(TRANSITIONS).flatMap(([state, row]) =>
      Object.keys(row.on).map((event) => `${state}.${event}`),
    );
    expect(table.filter((move) => !driven.has(move))).toEqual([]);
  });
});
