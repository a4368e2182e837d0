/**
 * The upload race (docs/upload-conversion.md) as a state machine: the states one video's sending goes through, the
 * events that move it, and what each move asks to be done, all in one table (TRANSITIONS). Pure: time comes in with
 * the events and effects go out as data; send-video.ts runs them (the worker, the uploads, the timers) and feeds back
 * what they report. An event a state has no row for changes nothing.
 */
import type { ConversionStart } from './convert-types.js';
import { raceVerdict } from './convert-rules.js';
import type { UploadProgress } from './multipart-upload.js';
import { asUploadError } from './upload-error.js';

/** What the uploading dialog shows: the device preparing the video (percent of the conversion), then the upload. */
export type SendProgress = { phase: 'preparing'; percent: number } | ({ phase: 'uploading' } & UploadProgress);

type SendState =
  | { name: 'idle' }
  /** The device reads the source while the original uploads (the bar shows the original). */
  | { name: 'checking' }
  /** The device can convert: the mezzanine's upload is being opened (the bar shows the conversion from here). */
  | { name: 'opening'; start: ConversionStart }
  /** Both run until the verdict: the original uploads, the mezzanine converts and its parts wait. */
  | { name: 'racing'; start: ConversionStart; partSize: number; began: number }
  /** The conversion is kept: the original is stopped, the mezzanine's parts go up as they are made. */
  | { name: 'converting'; partSize: number; began: number }
  /** Converted: the last parts go up and the upload completes with the real size (the bar shows it). */
  | { name: 'finishing' }
  /** The original is kept, or sent again after a kept conversion failed: the conversion is stopped. */
  | { name: 'original' }
  | { name: 'done'; key: string; converted: boolean }
  | { name: 'failed'; error: unknown }
  | { name: 'cancelled' };

export type SendEvent =
  | { type: 'begin'; convertible: boolean }
  | { type: 'checked'; start: ConversionStart }
  | { type: 'conversionProgress'; fraction: number; now: number }
  | { type: 'conversionDone'; size: number; now: number }
  /** `declined`: why the device would not or could not convert (ConversionDeclined); null for anything else. */
  | { type: 'conversionFailed'; declined: string | null; error: unknown }
  | { type: 'originalProgress'; progress: UploadProgress }
  | { type: 'originalDone'; key: string }
  | { type: 'originalFailed'; error: unknown }
  | { type: 'streamOpened'; partSize: number; now: number }
  | { type: 'streamRefused'; error: unknown }
  /** A part of the mezzanine waits for room in its upload (the muxer is held, not stalled), then is taken. */
  | { type: 'partWaiting' }
  | { type: 'partTaken'; stored: boolean; now: number }
  | { type: 'streamProgress'; progress: UploadProgress }
  /** A part of the mezzanine could not be stored after every retry: the connection is gone. */
  | { type: 'partsLost'; error: unknown }
  | { type: 'finished'; key: string }
  | { type: 'finishFailed'; error: unknown }
  | { type: 'tick'; now: number }
  | { type: 'cancel' };

/** What a move asks the driver to do; `stop` ends a side and drops what it reports later (the stream is deleted). */
export type SendEffect =
  | { run: 'startOriginal' }
  | { run: 'startConversion' }
  | { run: 'openStream' }
  | { run: 'convert' }
  | { run: 'releaseParts' }
  | { run: 'finishParts'; size: number }
  | { run: 'stop'; side: 'original' | 'conversion' | 'stream' }
  | { run: 'log'; line: string }
  | { run: 'show'; progress: SendProgress };

/** The facts gathered as events arrive, whatever the state. */
interface SendContext {
  /** The original's size: the mezzanine's limit and the log's yardstick. */
  fileBytes: number;
  /** A kept conversion that moves no further for this long is given up for the original. */
  stallMs: number;
  /** Share of the source converted, 0..1, and when the conversion (or its upload) last moved. */
  converted: number;
  movedAt: number;
  /** A part waits for room in the mezzanine's upload. */
  held: boolean;
  /** Parts the mezzanine's upload took while converting. */
  partsHanded: number;
  /** The original's upload: its last progress, and its failure while the race still ran. */
  original: UploadProgress | null;
  originalFailure: { error: unknown } | null;
}

export interface SendMachine {
  state: SendState;
  context: SendContext;
}

export interface Step {
  machine: SendMachine;
  effects: SendEffect[];
}

export function startMachine(o: { fileBytes: number; stallMs: number; now: number }): SendMachine {
  return {
    state: { name: 'idle' },
    context: {
      fileBytes: o.fileBytes,
      stallMs: o.stallMs,
      converted: 0,
      movedAt: o.now,
      held: false,
      partsHanded: 0,
      original: null,
      originalFailure: null,
    },
  };
}

type StateName = SendState['name'];
type EventType = SendEvent['type'];
type Handler<S extends StateName, E extends EventType> = (
  state: Extract<SendState, { name: S }>,
  event: Extract<SendEvent, { type: E }>,
  context: SendContext,
) => Step;
interface Row<S extends StateName> {
  /** While in this state the driver sends a `tick` this often (ms). */
  tickMs?: (c: SendContext) => number;
  on: { [E in EventType]?: Handler<S, E> };
}

const go = (context: SendContext, state: SendState, effects: SendEffect[] = []): Step => ({
  machine: { state, context },
  effects,
});
const log = (line: string): SendEffect => ({ run: 'log', line });
const show = (progress: SendProgress): SendEffect => ({ run: 'show', progress });
const stop = (side: 'original' | 'conversion' | 'stream'): SendEffect => ({ run: 'stop', side });
const STOP_ALL = [stop('original'), stop('conversion'), stop('stream')];

const preparing = (c: SendContext): SendProgress => ({
  phase: 'preparing',
  percent: Math.min(99, Math.floor(c.converted * 100)),
});
const uploading = (p: UploadProgress): SendProgress => ({ phase: 'uploading', ...p });

const moved = (c: SendContext, e: { fraction: number; now: number }): SendContext => ({
  ...c,
  converted: e.fraction,
  movedAt: e.now,
});
const taken = (c: SendContext, e: { stored: boolean; now: number }): SendContext => ({
  ...c,
  held: false,
  movedAt: e.now,
  partsHanded: c.partsHanded + (e.stored ? 1 : 0),
});

const fail = (c: SendContext, error: unknown) => go(c, { name: 'failed', error }, STOP_ALL);
const cancel = (c: SendContext) => go(c, { name: 'cancelled' }, STOP_ALL);

/**
 * The original is kept: the conversion and the mezzanine's upload stop, the bar shows the original's upload; done
 * when its key is known, failed when it failed during the race.
 */
function keepOriginal(c: SendContext, reason: string, key?: string): Step {
  const effects = [
    log(`original: ${reason}`),
    stop('conversion'),
    stop('stream'),
    ...(c.original ? [show(uploading(c.original))] : []),
  ];
  if (key !== undefined) return go(c, { name: 'done', key, converted: false }, effects);
  if (c.originalFailure) return go(c, { name: 'failed', error: c.originalFailure.error }, effects);
  return go(c, { name: 'original' }, effects);
}

/** The conversion is kept: the original's upload is stopped (its parts deleted), the mezzanine's parts go. */
function keepConversion(s: { partSize: number; began: number }, c: SendContext, reason: string): Step {
  return go(c, { name: 'converting', partSize: s.partSize, began: s.began }, [
    log(`convert: ${reason}`),
    stop('original'),
    { run: 'releaseParts' },
  ]);
}

/** Converted: the upload completes with the real size. */
function finish(s: { partSize: number; began: number }, c: SendContext, e: { size: number; now: number }): Step {
  const share = ((e.size / c.fileBytes) * 100).toFixed(1);
  const seconds = ((e.now - s.began) / 1000).toFixed(1);
  return go(c, { name: 'finishing' }, [
    log(
      `converted: ${e.size} bytes, ${share} % of the original, in ${seconds} s; ${c.partsHanded} of ${Math.ceil(e.size / s.partSize)} parts handed to the upload while converting`,
    ),
    { run: 'finishParts', size: e.size },
  ]);
}

/** A kept conversion broke or stalled: the worker ends, the mezzanine's parts are deleted, the original starts over. */
function sendOriginalAgain(c: SendContext, reason: string): Step {
  return go({ ...c, original: null, originalFailure: null }, { name: 'original' }, [
    stop('conversion'),
    stop('stream'),
    log(`original: conversion failed after the verdict: ${reason}`),
    { run: 'startOriginal' },
  ]);
}

/** Every state, what moves it, and what each move asks for. */
export const TRANSITIONS: { [S in StateName]: Row<S> } = {
  idle: {
    on: {
      begin: (_, e, c) =>
        e.convertible
          ? go(c, { name: 'checking' }, [{ run: 'startConversion' }, { run: 'startOriginal' }])
          : go(c, { name: 'original' }, [
              log('original: this browser has no WebCodecs in workers'),
              { run: 'startOriginal' },
            ]),
    },
  },
  checking: {
    on: {
      originalProgress: (s, e, c) => go({ ...c, original: e.progress }, s, [show(uploading(e.progress))]),
      conversionProgress: (s, e, c) => go(moved(c, e), s),
      checked: (_, { start }, c) =>
        go(c, { name: 'opening', start }, [
          show(preparing(c)),
          log(
            `converting ${start.codec} to ${start.size.width}x${start.size.height} with the ${start.decoder} decoder (asked with '${start.decoderHint}') and the ${start.encoder} encoder`,
          ),
          { run: 'openStream' },
        ]),
      conversionFailed: (_, e, c) => (e.declined !== null ? keepOriginal(c, e.declined) : fail(c, e.error)),
      originalDone: (_, e, c) =>
        keepOriginal(c, 'it finished uploading before the device had checked the source', e.key),
      originalFailed: (_, e, c) => fail(c, e.error),
      cancel: (_, __, c) => cancel(c),
    },
  },
  opening: {
    on: {
      originalProgress: (s, e, c) => go({ ...c, original: e.progress }, s),
      conversionProgress: (s, e, c) => go(moved(c, e), s, [show(preparing(moved(c, e)))]),
      streamOpened: (s, e, c) =>
        go(c, { name: 'racing', start: s.start, partSize: e.partSize, began: e.now }, [{ run: 'convert' }]),
      streamRefused: (_, e, c) =>
        keepOriginal(c, `the mezzanine's upload was refused: ${asUploadError(e.error).message}`),
      originalDone: (_, e, c) => keepOriginal(c, 'it finished uploading first', e.key),
      originalFailed: (s, e, c) => go({ ...c, originalFailure: { error: e.error } }, s),
      cancel: (_, __, c) => cancel(c),
    },
  },
  racing: {
    tickMs: () => 250,
    on: {
      originalProgress: (s, e, c) => go({ ...c, original: e.progress }, s),
      conversionProgress: (s, e, c) => go(moved(c, e), s, [show(preparing(moved(c, e)))]),
      partWaiting: (s, _, c) => go({ ...c, held: true }, s),
      partTaken: (s, e, c) => go(taken(c, e), s),
      tick: (s, e, c) => {
        const v = raceVerdict({
          elapsedSeconds: (e.now - s.began) / 1000,
          converted: c.converted,
          durationSeconds: s.start.durationSeconds,
          originalBytes: c.fileBytes,
          uploadedBytes: c.original?.bytesUploaded ?? 0,
          bytesPerSecond: c.original?.bytesPerSecond ?? null,
          targetBitrate: s.start.bitrate,
        });
        if (v.choice === 'wait') return go(c, s);
        return v.choice === 'convert' ? keepConversion(s, c, v.reason) : keepOriginal(c, v.reason);
      },
      conversionDone: (s, e, c) => {
        const kept = keepConversion(s, c, 'the conversion finished first');
        const done = finish(s, c, e);
        return { machine: done.machine, effects: [...kept.effects, ...done.effects] };
      },
      conversionFailed: (_, e, c) =>
        keepOriginal(c, e.declined !== null ? `conversion failed: ${e.declined}` : 'conversion stopped'),
      originalDone: (_, e, c) => keepOriginal(c, 'it finished uploading first', e.key),
      originalFailed: (s, e, c) => go({ ...c, originalFailure: { error: e.error } }, s),
      cancel: (_, __, c) => cancel(c),
    },
  },
  converting: {
    tickMs: (c) => Math.min(1000, c.stallMs),
    on: {
      conversionProgress: (s, e, c) => go(moved(c, e), s, [show(preparing(moved(c, e)))]),
      partWaiting: (s, _, c) => go({ ...c, held: true }, s),
      partTaken: (s, e, c) => go(taken(c, e), s),
      tick: (s, e, c) =>
        !c.held && e.now - c.movedAt > c.stallMs
          ? sendOriginalAgain(c, `no progress for ${c.stallMs / 1000} s`)
          : go(c, s),
      conversionDone: (s, e, c) => finish(s, c, e),
      conversionFailed: (_, e, c) => (e.declined !== null ? sendOriginalAgain(c, e.declined) : fail(c, e.error)),
      partsLost: (_, e, c) => fail(c, e.error),
      cancel: (_, __, c) => cancel(c),
    },
  },
  finishing: {
    on: {
      streamProgress: (s, e, c) => go(c, s, [show(uploading(e.progress))]),
      finished: (_, e, c) => go(c, { name: 'done', key: e.key, converted: true }),
      finishFailed: (_, e, c) => fail(c, e.error),
      partsLost: (_, e, c) => fail(c, e.error),
      cancel: (_, __, c) => cancel(c),
    },
  },
  original: {
    on: {
      originalProgress: (s, e, c) => go({ ...c, original: e.progress }, s, [show(uploading(e.progress))]),
      originalDone: (_, e, c) => go(c, { name: 'done', key: e.key, converted: false }),
      originalFailed: (_, e, c) => fail(c, e.error),
      cancel: (_, __, c) => cancel(c),
    },
  },
  done: { on: {} },
  failed: { on: {} },
  cancelled: { on: {} },
};

/** The reducer: the table's move for this event in this state, or no change. */
export function next(machine: SendMachine, event: SendEvent): Step {
  const handler = TRANSITIONS[machine.state.name].on[event.type] as
    | ((s: SendState, e: SendEvent, c: SendContext) => Step)
    | undefined;
  return handler ? handler(machine.state, event, machine.context) : { machine, effects: [] };
}

/** How often the driver ticks in this state (ms), or null when nothing in it waits on time. */
export function tickMs(machine: SendMachine): number | null {
  return TRANSITIONS[machine.state.name].tickMs?.(machine.context) ?? null;
}
