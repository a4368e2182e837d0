/**
 * The main thread's side of the conversion worker: starts it for one file, reports its progress, answers the
 * mezzanine as a File (named after the original, same last-modified time) and terminates the worker when done,
 * refused, failed or aborted. `started` settles when the worker has checked the source and the device.
 */
import type { ConvertReply, ConvertRequest } from './convert-types.js';

export type ConversionStart = Extract<ConvertReply, { type: 'started' }>;

/** The device will not (or could not) convert this file; `reason` goes to the debug log. */
export class ConversionDeclined extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ConversionDeclined';
  }
}

export interface RunningConversion {
  started: Promise<ConversionStart>;
  result: Promise<File>;
}

/** True where the browser has what the worker needs (WebCodecs in workers, module workers). */
export function canConvertHere(): boolean {
  return typeof Worker !== 'undefined' && typeof VideoEncoder !== 'undefined' && typeof VideoDecoder !== 'undefined';
}

/** The mezzanine's name: the original's, as an .mp4 ("IMG_0001.MOV" → "IMG_0001.mp4"). */
function mezzanineName(name: string): string {
  return `${name.replace(/\.[^.]*$/, '') || 'video'}.mp4`;
}

export function startConversion(file: File, signal: AbortSignal, onProgress: (fraction: number) => void): RunningConversion {
  const worker = new Worker(new URL('./convert-worker.ts', import.meta.url), { type: 'module' });
  const send = (m: ConvertRequest) => worker.postMessage(m);
  let start!: { resolve: (s: ConversionStart) => void; reject: (e: unknown) => void };
  let finish!: { resolve: (f: File) => void; reject: (e: unknown) => void };
  const started = new Promise<ConversionStart>((resolve, reject) => (start = { resolve, reject }));
  const result = new Promise<File>((resolve, reject) => (finish = { resolve, reject }));
  // A caller that only awaits one of them must not leave the other rejected unhandled.
  started.catch(() => undefined);
  result.catch(() => undefined);
  const end = (e: unknown) => {
    worker.terminate();
    start.reject(e);
    finish.reject(e);
  };
  worker.onmessage = (e: MessageEvent<ConvertReply>) => {
    const m = e.data;
    if (m.type === 'started') start.resolve(m);
    else if (m.type === 'progress') onProgress(m.fraction);
    else if (m.type === 'done') {
      worker.terminate();
      finish.resolve(new File([m.buffer], mezzanineName(file.name), { type: 'video/mp4', lastModified: file.lastModified }));
    } else end(new ConversionDeclined(m.reason));
  };
  worker.onerror = (e) => end(new ConversionDeclined(`the worker failed: ${e.message}`));
  const abort = () => {
    send({ type: 'cancel' });
    end(new DOMException('Conversion cancelled', 'AbortError'));
  };
  if (signal.aborted) abort();
  else {
    signal.addEventListener('abort', abort, { once: true });
    send({ type: 'convert', file });
  }
  return { started, result };
}
