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

/**
 * One side's lifetime (the original's upload, the conversion, the mezzanine's upload): stopping it aborts its signal,
 * and what it reports after that never reaches the machine.
 */
interface Side {
  signal: AbortSignal;
  stop(): void;
  tell(event: SendEvent): void;
}

/** What the driver holds while one video is sent: the sides running and the handles they answered. */
interface Run {
  calls: UploadCalls;
  file: File;
  out: { onProgress: (p: SendProgress) => void; log: (line: string) => void };
  dispatch: (e: SendEvent) => void;
  sides: { original?: Side; conversion?: Side; stream?: Side };
  conversion?: RunningConversion;
  parts?: PartStream;
}

function newSide(run: Run, name: keyof Run['sides']): Side {
  const ctl = new AbortController();
  const side: Side = {
    signal: ctl.signal,
    stop: () => ctl.abort(),
    tell: (e) => {
      if (!ctl.signal.aborted) run.dispatch(e);
    },
  };
  run.sides[name] = side;
  return side;
}

const failedConversion = (error: unknown): SendEvent => ({
  type: 'conversionFailed',
  declined: error instanceof ConversionDeclined ? error.reason : null,
  error,
});
const now = () => performance.now();

/** What each effect the machine asks for does; the sides it starts tell what they do as events. */
const EFFECTS: { [K in SendEffect['run']]: (run: Run, effect: Extract<SendEffect, { run: K }>) => void } = {
  startOriginal(run) {
    const side = newSide(run, 'original');
    uploadVideo({
      calls: run.calls,
      file: run.file,
      signal: side.signal,
      onProgress: (progress) => side.tell({ type: 'originalProgress', progress }),
    }).then(
      ({ key }) => side.tell({ type: 'originalDone', key }),
      (error: unknown) => side.tell({ type: 'originalFailed', error }),
    );
  },
  startConversion(run) {
    const side = newSide(run, 'conversion');
    run.conversion = startConversion(run.file, side.signal, (fraction) =>
      side.tell({ type: 'conversionProgress', fraction, now: now() }),
    );
    run.conversion.started.then(
      (start) => side.tell({ type: 'checked', start }),
      (error: unknown) => side.tell(failedConversion(error)),
    );
  },
  openStream(run) {
    const side = newSide(run, 'stream');
    startPartStream({
      calls: run.calls,
      fileName: mezzanineName(run.file.name),
      lastModified: run.file.lastModified,
      limit: run.file.size,
      signal: side.signal,
      onProgress: (progress) => side.tell({ type: 'streamProgress', progress }),
      onFailure: (error) => side.tell({ type: 'partsLost', error }),
    }).then(
      (parts) => {
        // Opened after the race had moved on: nothing is sent, and the upload is deleted.
        if (side.signal.aborted) return void parts.abort();
        run.parts = parts;
        side.tell({ type: 'streamOpened', partSize: parts.partSize, now: now() });
      },
      (error: unknown) => side.tell({ type: 'streamRefused', error }),
    );
  },
  convert(run) {
    const side = run.sides.conversion!;
    const parts = run.parts!;
    const taken = (stored: boolean) => side.tell({ type: 'partTaken', stored, now: now() });
    const onPart = (n: number, bytes: Uint8Array<ArrayBuffer>) => {
      side.tell({ type: 'partWaiting' });
      return parts.put(n, bytes).then(
        () => taken(true),
        (e: unknown) => {
          taken(false);
          throw e;
        },
      );
    };
    run.conversion!.convert(parts.partSize, run.file.size, onPart).then(
      (size) => side.tell({ type: 'conversionDone', size, now: now() }),
      (error: unknown) => side.tell(failedConversion(error)),
    );
  },
  releaseParts(run) {
    run.parts!.release();
  },
  finishParts(run, { size }) {
    const side = run.sides.stream!;
    run.parts!.finish(size).then(
      ({ key }) => side.tell({ type: 'finished', key }),
      (error: unknown) => side.tell({ type: 'finishFailed', error }),
    );
  },
  stop(run, { side: name }) {
    const side = run.sides[name];
    if (!side || side.signal.aborted) return;
    side.stop();
    // The mezzanine's parts are deleted, not left for the server's sweep.
    if (name === 'stream') void run.parts?.abort();
  },
  log(run, { line }) {
    run.out.log(line);
  },
  show(run, { progress }) {
    run.out.onProgress(progress);
  },
};

const perform = (run: Run, effect: SendEffect) =>
  (EFFECTS[effect.run] as (run: Run, effect: SendEffect) => void)(run, effect);

/** Uploads the file (converted on the device when that is sooner) and answers the stored upload's key. */
export function sendVideo(o: SendOptions): Promise<{ key: string; converted: boolean }> {
  const { calls, file, signal, onProgress, log = debugLog, stallMs = STALL_MS } = o;
  return new Promise((resolve, reject) => {
    let machine = startMachine({ fileBytes: file.size, stallMs, now: now() });
    let ticker: { ms: number; id: ReturnType<typeof setInterval> } | null = null;
    // Events told while one is handled wait their turn: each move's effects all run before the next event.
    const queue: SendEvent[] = [];
    const dispatch = (event: SendEvent) => {
      queue.push(event);
      if (queue.length > 1) return;
      while (queue.length > 0) {
        try {
          const step = next(machine, queue[0]!);
          machine = step.machine;
          for (const effect of step.effects) perform(run, effect);
        } finally {
          queue.shift();
        }
      }
      const ms = tickMs(machine);
      if (ticker?.ms !== ms) {
        if (ticker) clearInterval(ticker.id);
        ticker = ms === null ? null : { ms, id: setInterval(() => dispatch({ type: 'tick', now: now() }), ms) };
      }
      const s = machine.state;
      if (s.name !== 'done' && s.name !== 'failed' && s.name !== 'cancelled') return;
      signal.removeEventListener('abort', onAbort);
      if (s.name === 'done') resolve({ key: s.key, converted: s.converted });
      else reject(s.name === 'failed' ? s.error : new DOMException('Upload cancelled', 'AbortError'));
    };
    const onAbort = () => dispatch({ type: 'cancel' });
    const run: Run = { calls, file, out: { onProgress, log }, dispatch, sides: {} };

    dispatch({ type: 'begin', convertible: canConvertHere() });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
