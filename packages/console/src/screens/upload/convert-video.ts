/**
 * The main thread's side of the conversion worker, through comlink (convert-worker.ts `expose`s its API; the parts'
 * buffers are transferred, not copied): starts it for one file, checks the source and the device (`started`), then
 * converts when asked, handing the mezzanine's parts on as they are made. The worker is terminated when the
 * conversion ends, is declined or fails, or the signal aborts (which also asks the worker to stop).
 */
import { proxy, wrap } from 'comlink';
import type { ConversionStart, ConvertWorkerApi, OnPart } from './convert-types.js';

export type { ConversionStart } from './convert-types.js';

/** The device will not (or could not) convert this file; `reason` goes to the debug log. */
export class ConversionDeclined extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ConversionDeclined';
  }
}

export interface RunningConversion {
  /**
   * Settles when the worker has checked the source and the device; rejects with ConversionDeclined when it will not.
   */
  started: Promise<ConversionStart>;
  /**
   * Converts (after `started`): each part of `partSize` bytes goes to `onPart` as it is made, and the worker waits for
   * `onPart` to settle. Answers the mezzanine's size; rejects with ConversionDeclined when decoding or encoding fails.
   */
  convert(partSize: number, limit: number, onPart: OnPart): Promise<number>;
}

/** True where the browser has what the worker needs (WebCodecs in workers, module workers). */
export function canConvertHere(): boolean {
  return typeof Worker !== 'undefined' && typeof VideoEncoder !== 'undefined' && typeof VideoDecoder !== 'undefined';
}

const reasonOf = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));

export function startConversion(
  file: File,
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
): RunningConversion {
  const worker = new Worker(new URL('./convert-worker.ts', import.meta.url), { type: 'module' });
  const remote = wrap<ConvertWorkerApi>(worker);
  const cancelled = () => new DOMException('Conversion cancelled', 'AbortError');
  let crash!: (e: unknown) => void;
  // A worker that dies (out of memory, a script error) answers nothing more: every call still waiting fails with it.
  const crashed = new Promise<never>((_, reject) => (crash = reject));
  crashed.catch(() => undefined);
  worker.addEventListener('error', (e) => crash(new ConversionDeclined(`the worker failed: ${e.message}`)));
  const stop = () => {
    void remote.abort().catch(() => undefined);
    // Give the abort a moment to reach the worker's decoders and encoders, then end it whatever it is doing.
    setTimeout(() => worker.terminate(), 100);
    crash(cancelled());
  };
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });

  const started = Promise.race([remote.check(file), crashed]).then(
    (r) => {
      if (r.ok) return r.start;
      worker.terminate();
      throw new ConversionDeclined(r.reason);
    },
    (e: unknown) => {
      worker.terminate();
      throw signal.aborted ? cancelled() : e instanceof ConversionDeclined ? e : new ConversionDeclined(reasonOf(e));
    },
  );
  // A caller that awaits only `convert` must not leave `started` rejected unhandled.
  started.catch(() => undefined);

  const convert = async (partSize: number, limit: number, onPart: OnPart) => {
    try {
      return await Promise.race([remote.convert(partSize, limit, proxy(onProgress), proxy(onPart)), crashed]);
    } catch (e) {
      throw signal.aborted ? cancelled() : e instanceof ConversionDeclined ? e : new ConversionDeclined(reasonOf(e));
    } finally {
      worker.terminate();
    }
  };
  return { started, convert };
}
