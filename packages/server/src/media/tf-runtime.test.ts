/** The TensorFlow.js runtime of the detectors: what a detection thread loads, and models run on several pictures. */
import { describe, expect, it } from 'vitest';
import { FACE_MODEL_FILE } from './faces.js';
import { loadShippedGraphModel, tfRuntime } from './tf-runtime.js';

describe('tfRuntime', () => {
  it('loads the cpu backend only when the wasm backend cannot run', async () => {
    const { tf, backend } = await tfRuntime();
    // The cpu backend registers itself when its module loads: with wasm running, nothing registered it.
    expect(tf.findBackendFactory('cpu') === null).toBe(backend === 'wasm');
  });
});

describe('loadShippedGraphModel', () => {
  it('opened to any batch, runs two pictures at once and answers each as a run of one does', async () => {
    const { tf } = await tfRuntime();
    const one = await loadShippedGraphModel(FACE_MODEL_FILE);
    const many = await loadShippedGraphModel(FACE_MODEL_FILE, { batch: true });
    const size = 256 * 256 * 3;
    const pictures = new Float32Array(2 * size).map((_, i) => (((i * 7919) % 251) / 125 - 1) * (i < size ? 1 : -1));
    const run = async (model: typeof one, from: number, count: number) => {
      const outputs = tf.tidy(() => {
        const r = model.execute(
          tf.tensor4d(pictures.subarray(from * size, (from + count) * size), [count, 256, 256, 3]),
        );
        return (Array.isArray(r) ? r : [r]).map((t) => t.clone());
      });
      const data = await Promise.all(outputs.map((t) => t.data() as Promise<Float32Array>));
      for (const t of outputs) t.dispose();
      return data;
    };
    const [first, second, both] = [await run(one, 0, 1), await run(one, 1, 1), await run(many, 0, 2)];
    expect(both.map((o) => o.length)).toEqual(first.map((o) => 2 * o.length));
    for (const [k, o] of both.entries()) {
      const half = o.length / 2;
      let most = 0;
      for (let i = 0; i < half; i++)
        most = Math.max(most, Math.abs(o[i]! - first[k]![i]!), Math.abs(o[half + i]! - second[k]![i]!));
      expect(most).toBeLessThan(1e-4);
    }
  });
});
