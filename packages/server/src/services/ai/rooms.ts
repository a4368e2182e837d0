/**
 * Room understanding, shared by AI markers, photos and reels: where each room of a walkthrough starts and what it is.
 *
 * 1. Boundaries: the video is sampled at SAMPLE_FPS into tiny frames; each gets a colour histogram (4x4x4 RGB bins
 *    in a 2x2 grid). A room change is a peak of the histogram distance between a frame and the one a second earlier
 *    (a walk through a doorway changes colours over a second, a cut at once), above BOUNDARY_THRESHOLD, at least
 *    MIN_ROOM_SECONDS after the previous one.
 * 2. Labels: a few frames of each room go through the COCO detector (object-detector.ts) and the objects vote for a
 *    predefined marker name (OBJECT_ROOMS). A room with no telling object is named by a documented heuristic:
 *    the first room is the Entrance, a mostly green and bright one the Garden, a short one (a passage) the Hallway,
 *    any other the Living Room.
 */
import type { PREDEFINED_MARKER_NAMES } from '@roomwalk/shared';
import { DETECTOR_INPUT, detectObjects, type Detection } from './object-detector.js';
import { probeDuration, sampleFrames, type SampledFrame } from './ffmpeg.js';

export type RoomName = (typeof PREDEFINED_MARKER_NAMES)[number];

const SAMPLE_FPS = 4;
const SAMPLE_SIZE = { width: 64, height: 36 } as const;
const BOUNDARY_THRESHOLD = 0.35;
const MIN_ROOM_SECONDS = 2;

/** What each COCO object says about the room it stands in, with a weight. */
const OBJECT_ROOMS: Record<string, Array<[RoomName, number]>> = {
  bed: [['Bedroom', 3]],
  'teddy bear': [['Bedroom', 1]],
  toilet: [['Bathroom', 3]],
  toothbrush: [['Bathroom', 1.5]],
  'hair drier': [['Bathroom', 1.5]],
  sink: [
    ['Bathroom', 1],
    ['Kitchen', 1],
  ],
  oven: [['Kitchen', 3]],
  microwave: [['Kitchen', 2.5]],
  toaster: [['Kitchen', 2.5]],
  refrigerator: [['Kitchen', 3]],
  bowl: [
    ['Kitchen', 0.5],
    ['Dining Room', 0.5],
  ],
  'wine glass': [['Dining Room', 1]],
  cup: [
    ['Kitchen', 0.3],
    ['Dining Room', 0.3],
  ],
  'dining table': [['Dining Room', 2.5]],
  couch: [['Living Room', 3]],
  tv: [
    ['Living Room', 2],
    ['Media Room', 1],
  ],
  remote: [
    ['Living Room', 1],
    ['Media Room', 0.5],
  ],
  laptop: [['Home Office', 2]],
  keyboard: [['Home Office', 2]],
  mouse: [['Home Office', 1.5]],
  book: [
    ['Home Office', 0.5],
    ['Living Room', 0.3],
  ],
  car: [['Garage', 3]],
  bicycle: [['Garage', 1.5]],
  motorcycle: [['Garage', 2]],
  'sports ball': [['Game Room', 1]],
  'tennis racket': [['Gym', 1]],
  'potted plant': [
    ['Garden', 0.5],
    ['Terrace', 0.5],
  ],
  bench: [
    ['Garden', 1],
    ['Terrace', 0.5],
  ],
  umbrella: [['Terrace', 1]],
};

export interface Room {
  /** Seconds from the start of the video. */
  start: number;
  end: number;
  name: RoomName;
  /** 0..1: how sure the label is (0 for a heuristic name). */
  confidence: number;
  /** Objects the detector saw, best score each. */
  objects: Array<{ label: string; score: number }>;
}

const BINS = 4;
const HIST_SIZE = BINS * BINS * BINS * 4;

/** Colour histogram of a tiny RGB frame: 64 colour bins in each quarter of the picture, normalised to sum 1. */
function histogram(rgb: Buffer, width: number, height: number): Float32Array {
  const h = new Float32Array(HIST_SIZE);
  const shift = 8 - Math.log2(BINS);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const quad = (y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1);
      const bin = ((rgb[i]! >> shift) * BINS + (rgb[i + 1]! >> shift)) * BINS + (rgb[i + 2]! >> shift);
      h[quad * 64 + bin]! += 1;
    }
  }
  const n = width * height;
  for (let i = 0; i < HIST_SIZE; i++) h[i]! /= n;
  return h;
}

/** Half the L1 distance of two normalised histograms: 0 for the same colours, 1 for nothing in common. */
function histogramDistance(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += Math.abs(a[i]! - b[i]!);
  return d / 2;
}

/** Start times (seconds) of the rooms after the first, from frames sampled at `fps`. */
function findBoundaries(
  frames: SampledFrame[],
  fps: number,
  size = SAMPLE_SIZE,
  o: { threshold?: number; minRoomSeconds?: number } = {},
): number[] {
  const threshold = o.threshold ?? BOUNDARY_THRESHOLD;
  const minGap = o.minRoomSeconds ?? MIN_ROOM_SECONDS;
  const hists = frames.map((f) => histogram(f.data, size.width, size.height));
  const lag = Math.max(1, Math.round(fps));
  // Score at i: change across the last second, and how much of it happened in the last step (locates a cut exactly).
  const score = hists.map((h, i) =>
    i === 0 ? 0 : Math.max(histogramDistance(h, hists[Math.max(0, i - lag)]!), histogramDistance(h, hists[i - 1]!)),
  );
  const step = hists.map((h, i) => (i === 0 ? 0 : histogramDistance(h, hists[i - 1]!)));
  const cuts: number[] = [];
  let last = 0;
  for (let i = 1; i < frames.length; i++) {
    if (score[i]! < threshold) continue;
    // Take the frame with the biggest single step inside the window of this change.
    let best = i;
    for (let j = i; j < Math.min(frames.length, i + lag); j++) if (step[j]! > step[best]!) best = j;
    const t = frames[best]!.t;
    if (t - last >= minGap && frames[frames.length - 1]!.t - t >= minGap / 2) {
      cuts.push(t);
      last = t;
    }
    i = best + lag - 1;
  }
  return cuts;
}

/** The predefined room name the detected objects vote for, with the winner's share of the votes. */
export function roomFromObjects(
  objects: Array<{ label: string; score: number }>,
): { name: RoomName; confidence: number } | null {
  const votes = new Map<RoomName, number>();
  for (const o of objects)
    for (const [room, w] of OBJECT_ROOMS[o.label] ?? []) votes.set(room, (votes.get(room) ?? 0) + w * o.score);
  // A sink with a toilet is a bathroom; a sink with an oven or fridge is a kitchen: the weights above settle it.
  const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1]);
  const top = ranked[0];
  if (!top || top[1] < 0.5) return null;
  const total = ranked.reduce((s, [, v]) => s + v, 0);
  return { name: top[0], confidence: Math.min(1, top[1] / total) * Math.min(1, top[1] / 1.5) };
}

/** Share of green, bright pixels in a tiny RGB frame (lawns, gardens). */
function greenShare(rgb: Buffer): number {
  let green = 0;
  for (let i = 0; i < rgb.length; i += 3) {
    const r = rgb[i]!;
    const g = rgb[i + 1]!;
    const b = rgb[i + 2]!;
    if (g > 90 && g > r * 1.15 && g > b * 1.15) green++;
  }
  return green / (rgb.length / 3);
}

export interface AnalyseOptions {
  signal?: AbortSignal | undefined;
  /** Frames per room sent to the detector. */
  framesPerRoom?: number;
  /** 0..1 as the analysis advances. */
  onProgress?: (fraction: number) => void;
  /** Turn the detector off (heuristic names only). */
  detector?: boolean;
}

/** Rooms of a walkthrough video, in order, covering it from start to end. */
export async function analyseRooms(file: string, o: AnalyseOptions = {}): Promise<Room[]> {
  const { duration } = await probeDuration(file);
  const frames = await sampleFrames(file, {
    fps: SAMPLE_FPS,
    ...SAMPLE_SIZE,
    signal: o.signal,
    onFrame: (f) => o.onProgress?.(Math.min(1, f.t / duration) * 0.4),
  });
  if (frames.length === 0) throw new Error('no frames could be read from the video');
  const starts = [0, ...findBoundaries(frames, SAMPLE_FPS)];
  const perRoom = o.framesPerRoom ?? 3;
  const rooms: Room[] = [];
  for (const [k, start] of starts.entries()) {
    const end = starts[k + 1] ?? duration;
    const objects = new Map<string, number>();
    if (o.detector !== false) {
      for (let j = 0; j < perRoom; j++) {
        // Spread over the middle of the room, away from doorways.
        const t = start + (end - start) * ((j + 1) / (perRoom + 1));
        const [frame] = await sampleFrames(file, {
          fps: 1,
          width: DETECTOR_INPUT,
          height: DETECTOR_INPUT,
          start: t,
          duration: 0.5,
          signal: o.signal,
        });
        if (!frame) continue;
        const found: Detection[] = await detectObjects(frame.data, 0.4);
        for (const d of found) objects.set(d.label, Math.max(objects.get(d.label) ?? 0, d.score));
        o.onProgress?.(0.4 + 0.6 * ((k + (j + 1) / perRoom) / starts.length));
      }
    }
    const list = [...objects.entries()].map(([label, score]) => ({ label, score })).sort((a, b) => b.score - a.score);
    const voted = roomFromObjects(list);
    let name: RoomName;
    if (voted) name = voted.name;
    else {
      const inRoom = frames.filter((f) => f.t >= start && f.t < end);
      const green = inRoom.reduce((s, f) => s + greenShare(f.data), 0) / Math.max(1, inRoom.length);
      name = k === 0 ? 'Entrance' : green > 0.4 ? 'Garden' : end - start < 4 ? 'Hallway' : 'Living Room';
    }
    rooms.push({ start, end, name, confidence: voted?.confidence ?? 0, objects: list });
    o.onProgress?.(0.4 + 0.6 * ((k + 1) / starts.length));
  }
  return rooms;
}
