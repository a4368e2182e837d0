/**
 * From a checked file to a stored upload (docs/upload-conversion.md). Where the browser can convert, the device starts
 * converting and the original starts uploading at the same time; after the first seconds `raceVerdict` keeps the one
 * that ends sooner: the converted mezzanine (the original's parts are aborted and deleted) or the original (the
 * conversion is cancelled). The mezzanine goes up while it is made: its upload (stream-upload.ts, size stated at the
 * end) starts with the conversion, its parts wait for the verdict, then each leaves as soon as the muxer fills it.
 * A source the device will not or cannot convert (HDR, 10-bit, no decoder or encoder, a decode that fails) keeps
 * uploading the original. The choice and its reasons go to the debug log. Every failure reaches the caller as an
 * UploadError; cancelling rejects with an AbortError.
 *
 * Which side runs when is decided by the state machine in send-video-machine.ts; this module is its driver: it runs the
 * effects each move asks for, each side under its own AbortSignal, and feeds back what they report as events.
 */
import { uploadVideo } from './multipart-upload.js';
import { canConvertHere, ConversionDeclined, startConversion, type RunningConversion } from './convert-video.js';
import { startPartStream, type PartStream } from './stream-upload.js';
import type { UploadCalls } from './upload-calls.js';
import {
  next,
  startMachine,
  tickMs,
  type SendEffect,
  type SendEvent,
  type SendProgress,
} from './send-video-machine.js';

export type { SendProgress } from './send-video-machine.js';

export interface SendOptions {
  calls: UploadCalls;
  file: File;
  signal: AbortSignal;
  onProgress: (p: SendProgress) => void;
  /** Where the choice and its reasons are written (the browser's debug log). */
  log?: (line: string) => void;
  /** A kept conversion that moves no further for this long is given up for the original (default STALL_MS). */
  stallMs?: number;
}

/** Seen once under load: a conversion standing at 8 % for minutes. The user then gets the original instead. */
const STALL_MS = 30_000;

const debugLog = (line: string) => console.debug(`[upload] ${line}`);

/** The mezzanine's name: the original's, as an .mp4 ("IMG_0001.MOV" → "IMG_0001.mp4"). */
function mezzanineName(name: string): string {
  return `${name.replace(/\.[^.]*$/, '') || 'video'}.mp4`;
}

/** One side's lifetime (the original's upload, the conversion, the mezzanine's upload): what it reports after it was
 * stopped never reaches the machine. */
interface Side {
  signal: AbortSignal;
  stop(): void;
  tell(event: SendEvent): void;
}

function sideOf(dispatch: (e: SendEvent) => void): Side {
  const ctl = new AbortController();
  return {
    signal: ctl.signal,
    stop: () => ctl.abort(),
    tell: (e) => {
      if (!ctl.signal.aborted) dispatch(e);
    },
  };
}

const declinedOf = (error: unknown): SendEvent => ({
  type: 'conversionFailed',
  declined: error instanceof ConversionDeclined ? error.reason : null,
  error,
});

/** Uploads the file (converted on the device when that is sooner) and answers the stored upload's key. */
export function sendVideo(o: SendOptions): Promise<{ key: string; converted: boolean }> {
  const { signal, onProgress, log = debugLog, stallMs = STALL_MS } = o;
  return new Promise((resolve, reject) => {
    let machine = startMachine({ fileBytes: o.file.size, stallMs, now: performance.now() });
    let ticker: { ms: number; id: ReturnType<typeof setInterval> } | null = null;
    // Events told while one is handled wait their turn: each move's effects run before the next event.
    const queue: SendEvent[] = [];
    const dispatch = (event: SendEvent) => {
      queue.push(event);
      if (queue.length > 1) return;
      while (queue.length > 0) {
        const step = next(machine, queue[0]!);
        machine = step.machine;
        for (const effect of step.effects) perform(effect);
        queue.shift();
      }
      const ms = tickMs(machine);
      if (ticker?.ms !== ms) {
        if (ticker) clearInterval(ticker.id);
        ticker =
          ms === null ? null : { ms, id: setInterval(() => dispatch({ type: 'tick', now: performance.now() }), ms) };
      }
      const s = machine.state;
      if (s.name !== 'done' && s.name !== 'failed' && s.name !== 'cancelled') return;
      signal.removeEventListener('abort', onAbort);
      if (s.name === 'done') resolve({ key: s.key, converted: s.converted });
      else reject(s.name === 'failed' ? s.error : new DOMException('Upload cancelled', 'AbortError'));
    };
    const onAbort = () => dispatch({ type: 'cancel' });
    const perform = effectsOf(o, dispatch, { onProgress, log });

    dispatch({ type: 'begin', convertible: canConvertHere() });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** What each effect does: the sides it starts report back through `dispatch`, each under its own signal. */
function effectsOf(
  { calls, file }: SendOptions,
  dispatch: (e: SendEvent) => void,
  out: { onProgress: (p: SendProgress) => void; log: (line: string) => void },
): (effect: SendEffect) => void {
  const sides: { original?: Side; conversion?: Side; stream?: Side } = {};
  const live: { conversion?: RunningConversion; parts?: PartStream } = {};

  const startOriginal = () => {
    const side = sideOf(dispatch);
    sides.original = side;
    uploadVideo({
      calls,
      file,
      signal: side.signal,
      onProgress: (progress) => side.tell({ type: 'originalProgress', progress }),
    }).then(
      ({ key }) => side.tell({ type: 'originalDone', key }),
      (error: unknown) => side.tell({ type: 'originalFailed', error }),
    );
  };
  const startConverting = () => {
    const side = sideOf(dispatch);
    sides.conversion = side;
    live.conversion = startConversion(file, side.signal, (fraction) =>
      side.tell({ type: 'conversionProgress', fraction, now: performance.now() }),
    );
    live.conversion.started.then(
      (start) => side.tell({ type: 'checked', start }),
      (error: unknown) => side.tell(declinedOf(error)),
    );
  };
  const openStream = () => {
    const side = sideOf(dispatch);
    sides.stream = side;
    startPartStream({
      calls,
      fileName: mezzanineName(file.name),
      lastModified: file.lastModified,
      limit: file.size,
      signal: side.signal,
      onProgress: (progress) => side.tell({ type: 'streamProgress', progress }),
      onFailure: (error) => side.tell({ type: 'partsLost', error }),
    }).then(
      (parts) => {
        // Opened after the race had moved on: nothing will be sent, and the upload is deleted.
        if (side.signal.aborted) return void parts.abort();
        live.parts = parts;
        side.tell({ type: 'streamOpened', partSize: parts.partSize, now: performance.now() });
      },
      (error: unknown) => side.tell({ type: 'streamRefused', error }),
    );
  };
  const convert = () => {
    const side = sides.conversion!;
    const parts = live.parts!;
    const taken = (stored: boolean) => side.tell({ type: 'partTaken', stored, now: performance.now() });
    live
      .conversion!.convert(parts.partSize, file.size, (n, bytes) => {
        side.tell({ type: 'partWaiting' });
        return parts.put(n, bytes).then(
          () => taken(true),
          (e: unknown) => {
            taken(false);
            throw e;
          },
        );
      })
      .then(
        (size) => side.tell({ type: 'conversionDone', size, now: performance.now() }),
        (error: unknown) => side.tell(declinedOf(error)),
      );
  };
  const finishParts = (size: number) => {
    const side = sides.stream!;
    live.parts!.finish(size).then(
      ({ key }) => side.tell({ type: 'finished', key }),
      (error: unknown) => side.tell({ type: 'finishFailed', error }),
    );
  };
  const stop = (name: 'original' | 'conversion' | 'stream') => {
    const side = sides[name];
    if (!side || side.signal.aborted) return;
    side.stop();
    if (name === 'stream') void live.parts?.abort();
  };

  return (effect) => {
    switch (effect.run) {
      case 'startOriginal':
        return startOriginal();
      case 'startConversion':
        return startConverting();
      case 'openStream':
        return openStream();
      case 'convert':
        return convert();
      case 'releaseParts':
        return live.parts!.release();
      case 'finishParts':
        return finishParts(effect.size);
      case 'stop':
        return stop(effect.side);
      case 'log':
        return out.log(effect.line);
      case 'show':
        return out.onProgress(effect.progress);
    }
  };
}
