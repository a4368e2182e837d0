// The engine's own decoding ceiling (bench/engines.mjs): this engine's VideoDecoder on the bench tour's 720p clips,
// demuxed by the player's own clip loader, with the decoder's queue kept full (every sample of a clip queued at
// once, the next clip queued as soon as the last one went in), outputs closed at once, nothing copied or painted.
// Bundled by engines.mjs with esbuild and served as /ceiling-worker.js. Message in: { urls, ms, copy }; out: { frames,
// ms }. `copy`: each output is copied out as the player's decode worker copies it (frame-formats.ts copyFrame: the
// engine's copyTo, the range read back where the stream is full range, RGB to I420), to show what that costs each
// engine; `copy: 'engine'`: by the engine's copyTo alone, in the frame's own format (the part no player can avoid).
import { loadClip } from '../src/workers/clip-loader.ts';
import { copyFrame } from '../src/workers/frame-formats.ts';

/** The engine's own copy of a frame's pixels in its own format (copyTo, nothing converted): what no player can avoid. */
const engineCopy = (f) => f.copyTo(new ArrayBuffer(f.allocationSize()));

self.onmessage = async (e) => {
  const { urls, ms, copy } = e.data;
  try {
    const clips = [];
    for (let i = 0; i < urls.length; i++) clips.push(await loadClip('high', i, urls[i]).full);
    let frames = 0;
    let error;
    let wake = () => {};
    const copies = [];
    // Copies not yet done: at most 8 (the frames stay open until copied, and a decoder stalls on too many open).
    let inflight = 0;
    const decoder = new VideoDecoder({
      output: (f) => {
        if (copy) {
          inflight++;
          copies.push(
            (copy === 'engine' ? engineCopy(f) : copyFrame(f, clips[0].fullRange)).finally(() => {
              f.close();
              inflight--;
              wake();
            }),
          );
        } else f.close();
        frames++;
        wake();
      },
      error: (err) => {
        error = err;
      },
    });
    const c0 = clips[0];
    decoder.configure({
      codec: c0.codec,
      description: c0.description,
      codedWidth: c0.width,
      codedHeight: c0.height,
      optimizeForLatency: true,
      hardwareAcceleration: 'no-preference',
    });
    const queueClip = (clip) => {
      for (const s of clip.samples)
        decoder.decode(
          new EncodedVideoChunk({
            type: s.key ? 'key' : 'delta',
            timestamp: s.timestamp,
            duration: s.duration,
            data: s.data,
          }),
        );
    };
    // One clip decoded first, untimed: the decoder's start-up is not its throughput.
    queueClip(c0);
    await decoder.flush();
    await Promise.all(copies.splice(0));
    frames = 0;
    const t0 = performance.now();
    let k = 0;
    while (performance.now() - t0 < ms && !error) {
      // Keep at least a clip's worth queued: queue the next clip once fewer than 8 samples wait.
      queueClip(clips[k++ % clips.length]);
      // (Woken by outputs, not the 'dequeue' event, which not every engine here has.)
      while ((decoder.decodeQueueSize > 8 || inflight > 8) && !error)
        await new Promise((r) => {
          wake = r;
        });
    }
    await decoder.flush();
    await Promise.all(copies);
    const took = performance.now() - t0;
    decoder.close();
    self.postMessage(error ? { error: String(error) } : { frames, ms: took });
  } catch (err) {
    self.postMessage({ error: String(err?.stack ?? err) });
  }
};
