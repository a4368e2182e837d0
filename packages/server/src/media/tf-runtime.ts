/**
 * The TensorFlow.js runtime both detectors share: one backend choice (wasm, else cpu) per process, and graph models
 * loaded from the model files shipped in this package's `models/` folder (see its README) — never from the network.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Tf = typeof import('@tensorflow/tfjs-core');
export type GraphModel = import('@tensorflow/tfjs-converter').GraphModel;

/** Folder of the shipped model files (packages/server/models). */
export function modelsDir(): string {
  return fileURLToPath(new URL('../../models', import.meta.url));
}

let runtime: Promise<{ tf: Tf; backend: string }> | null = null;

/**
 * TensorFlow.js with the wasm backend (its file ships in the package), falling back to the slower cpu backend, which is
 * loaded only then: its kernels cost about 0.08 CPU s to load, in every detection thread's start (face-detector-thread.ts).
 */
export function tfRuntime(): Promise<{ tf: Tf; backend: string }> {
  runtime ??= (async () => {
    const tf = await import('@tensorflow/tfjs-core');
    let backend = 'cpu';
    try {
      await import('@tensorflow/tfjs-backend-wasm');
      if (await tf.setBackend('wasm')) backend = 'wasm';
    } catch {
      // This platform cannot run the wasm backend; cpu still works.
    }
    if (backend === 'cpu') {
      await import('@tensorflow/tfjs-backend-cpu');
      await tf.setBackend('cpu');
    }
    await tf.ready();
    return { tf, backend: tf.getBackend() };
  })().catch((err) => {
    runtime = null;
    throw err;
  });
  return runtime;
}

/**
 * A model saved for one picture a run (input batch 1, reshapes to [1, ...]) opened to any batch: the input's first
 * dimension and the first element of each int32 `.../shape` constant (the reshapes' target shapes) become -1, so one run
 * takes several pictures. Its weights are changed in place.
 */
function openBatch(
  topology: { node?: Array<{ op: string; attr?: { shape?: { shape?: { dim?: Array<{ size: string }> } } } }> },
  specs: Array<{ name: string; shape: number[]; dtype: string; quantization?: { dtype: string } }>,
  weights: Buffer,
): void {
  for (const n of topology.node ?? []) {
    const dim = n.op === 'Placeholder' ? n.attr?.shape?.shape?.dim : undefined;
    if (dim?.[0]?.size === '1') dim[0].size = '-1';
  }
  const bytes: Record<string, number> = { uint8: 1, uint16: 2, float16: 2 };
  let at = 0;
  for (const w of specs) {
    const count = w.shape.reduce((a, b) => a * b, 1);
    if (w.dtype === 'int32' && !w.quantization && w.name.endsWith('/shape') && weights.readInt32LE(at) === 1)
      weights.writeInt32LE(-1, at);
    at += count * (w.quantization ? (bytes[w.quantization.dtype] ?? 4) : 4);
  }
}

/**
 * Loads a graph model (its JSON and weight shards) from the models folder; `batch`: opened to several pictures a run
 * (openBatch).
 */
export async function loadShippedGraphModel(fileName: string, o: { batch?: boolean } = {}): Promise<GraphModel> {
  const { loadGraphModel } = await import('@tensorflow/tfjs-converter');
  const dir = modelsDir();
  const json = JSON.parse(await fs.readFile(path.join(dir, fileName), 'utf8')) as {
    modelTopology: object;
    format?: string;
    signature?: object;
    weightsManifest: Array<{ paths: string[]; weights: unknown[] }>;
  };
  return loadGraphModel({
    load: async () => {
      const parts = await Promise.all(
        json.weightsManifest.flatMap((g) => g.paths).map((p) => fs.readFile(path.join(dir, path.basename(p)))),
      );
      const all = Buffer.concat(parts);
      if (o.batch) openBatch(json.modelTopology, json.weightsManifest.flatMap((g) => g.weights) as never, all);
      return {
        modelTopology: json.modelTopology,
        weightSpecs: json.weightsManifest.flatMap((g) => g.weights) as never,
        weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
        ...(json.format ? { format: json.format } : {}),
        ...(json.signature ? { signature: json.signature } : {}),
      };
    },
  });
}
