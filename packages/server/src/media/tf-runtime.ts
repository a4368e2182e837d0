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

/** TensorFlow.js with the wasm backend (its file ships in the package), falling back to the slower cpu backend. */
export function tfRuntime(): Promise<{ tf: Tf; backend: string }> {
  runtime ??= (async () => {
    const tf = await import('@tensorflow/tfjs-core');
    await import('@tensorflow/tfjs-backend-cpu');
    let backend = 'cpu';
    try {
      await import('@tensorflow/tfjs-backend-wasm');
      if (await tf.setBackend('wasm')) backend = 'wasm';
    } catch {
      // This platform cannot run the wasm backend; cpu still works.
    }
    if (backend === 'cpu') await tf.setBackend('cpu');
    await tf.ready();
    return { tf, backend: tf.getBackend() };
  })().catch((err) => {
    runtime = null;
    throw err;
  });
  return runtime;
}

/** Loads a graph model (its JSON and weight shards) from the models folder. */
export async function loadShippedGraphModel(fileName: string): Promise<GraphModel> {
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
