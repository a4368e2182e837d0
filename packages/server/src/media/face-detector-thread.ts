/**
 * Face detection off the main thread for the privacy blur (blur-faces.ts): one worker thread per filtered video
 * (face-detect-worker.ts) runs BlazeFace on the sampled frames while the main thread keeps reading, blurring and
 * writing the frames before them, and ffmpeg keeps decoding and encoding. Requests are answered in order.
 *
 * A sampled frame's buffer is transferred to the thread and back (it is blurred and encoded after its detection):
 * no copy. The thread is ref'd only while a request is out, so an idle one never keeps the process alive. A filter
 * that ends normally gives its thread back (`release`): it is kept, model loaded, for the next video for up to a
 * minute (one per process, at most MAX_VIDEOS videos); one that fails or stops early terminates it (`close`).
 *
 * The thread runs the same sources as the caller: from TypeScript (npm start and the CLI under tsx, vitest, the
 * benches) through face-detect-worker-tsx.mjs, which loads face-detect-worker.ts with tsx's tsImport (Node 20 does not
 * hand the parent's --import loader to worker threads); from built JavaScript the .js worker directly.
 */
import { Worker } from 'node:worker_threads';
import type { Rect } from './face-detect.js';

export interface DetectRequest {
  id: number;
  frame: ArrayBuffer;
  width: number;
  height: number;
  letterbox: boolean;
  /** The frame's index in the video and whether the picture cut since the sample before (face-detect-worker.ts). */
  index: number;
  cut: boolean;
  /** Which video of this thread's (FaceDetectorThread.take): a new one starts the thread's following afresh. */
  video: number;
}
export type DetectReply = { id: number; frame: ArrayBuffer } & (
  | { faces: Rect[]; seconds: number; tracked: boolean }
  | { error: string }
);
/** Faces at a sample; `tracked`: followed from the sample before instead of detected. */
export type DetectAnswer = { faces: Rect[]; seconds: number; frame: Buffer; tracked: boolean };

/** The thread's entry: from built JavaScript the .js sibling; from the TypeScript sources, a bootstrap through tsx. */
const workerUrl = () =>
  new URL(
    import.meta.url.endsWith('.ts') ? './face-detect-worker-tsx.mjs' : './face-detect-worker.js',
    import.meta.url,
  );

/** How long a thread waits, model loaded, for the next video before it stops. */
const KEEP_IDLE_MS = 60_000;
/** Videos one thread serves before it is stopped and a fresh one started (nothing it holds grows without bound). */
const MAX_VIDEOS = 50;

export class FaceDetectorThread {
  /** Threads started and not yet stopped, in this process (tests check that none is left behind). */
  static running = 0;
  /** The thread kept after the last video that ended normally, and the timer that stops it. */
  private static kept: { thread: FaceDetectorThread; timer: NodeJS.Timeout } | null = null;
  /** Videos this thread has served; each request names its video, so the thread's per-video state starts afresh. */
  private video = 0;
  private readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: DetectAnswer) => void; reject: (e: Error) => void }>();
  private failure: Error | null = null;
  private closed = false;

  constructor() {
    this.worker = new Worker(workerUrl(), { stdout: false, stderr: false });
    FaceDetectorThread.running++;
    this.worker.unref();
    this.worker.on('message', (m: DetectReply) => {
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (!this.waiting.size) this.worker.unref();
      if ('error' in m) w.reject(new Error(`face detection failed: ${m.error}`));
      else w.resolve({ faces: m.faces, seconds: m.seconds, frame: Buffer.from(m.frame), tracked: m.tracked });
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.once('exit', (code) => {
      FaceDetectorThread.running--;
      this.fail(new Error(`face detection thread exited (code ${code})`));
    });
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const w of this.waiting.values()) w.reject(this.failure);
    this.waiting.clear();
  }

  /**
   * Faces in a yuv420p frame. The frame's memory moves to the thread (`frame` is empty until the answer) and comes
   * back as the answer's `frame`, the same bytes. A frame that does not own its whole ArrayBuffer is copied once.
   */
  detect(
    frame: Buffer,
    width: number,
    height: number,
    o: { letterbox?: boolean | undefined; index?: number; cut?: boolean } = {},
  ): Promise<DetectAnswer> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error('face detection thread closed'));
    const owned =
      frame.byteOffset === 0 && frame.byteLength === frame.buffer.byteLength && frame.buffer instanceof ArrayBuffer;
    const buffer = (owned ? frame.buffer : new Uint8Array(frame).buffer) as ArrayBuffer;
    const id = this.nextId++;
    const answer = new Promise<DetectAnswer>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    // A filter that stops early (error, abort) leaves answers nobody awaits: their rejection is not an error.
    answer.catch(() => {});
    this.worker.ref();
    // Without an index nothing is followed from one request to the next: each is detected.
    const request: DetectRequest = {
      id,
      frame: buffer,
      width,
      height,
      letterbox: o.letterbox ?? false,
      index: o.index ?? -1,
      cut: o.cut ?? false,
      video: this.video,
    };
    this.worker.postMessage(request, [buffer]);
    return answer;
  }

  /**
   * A thread for one video: the one kept from the last video when there is one (TensorFlow.js and the model already
   * loaded: about 0.8 CPU s saved a video), else a new one.
   */
  static take(): FaceDetectorThread {
    const kept = FaceDetectorThread.kept;
    FaceDetectorThread.kept = null;
    if (kept) {
      clearTimeout(kept.timer);
      if (!kept.thread.failure && !kept.thread.closed) {
        kept.thread.video++;
        return kept.thread;
      }
    }
    return new FaceDetectorThread();
  }

  /**
   * The video ended normally (every answer in): the thread is kept for the next video, unref'd, and stopped after
   * KEEP_IDLE_MS without one (one kept per process; the one kept before is stopped). Anything else stops it.
   */
  async release(): Promise<void> {
    if (this.closed || this.failure || this.waiting.size || this.video + 1 >= MAX_VIDEOS) return this.close();
    await FaceDetectorThread.stopKept();
    const timer = setTimeout(() => void FaceDetectorThread.stopKept(), KEEP_IDLE_MS);
    timer.unref();
    FaceDetectorThread.kept = { thread: this, timer };
  }

  /** Stops the kept thread now, if any. */
  static async stopKept(): Promise<void> {
    const kept = FaceDetectorThread.kept;
    FaceDetectorThread.kept = null;
    if (!kept) return;
    clearTimeout(kept.timer);
    await kept.thread.close();
  }

  /** Stops the thread (answers still out are rejected). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.fail(new Error('face detection thread closed'));
    await this.worker.terminate();
  }
}
