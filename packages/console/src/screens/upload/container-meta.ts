/**
 * Duration, coded size and rotation read from an MP4/MOV container, whatever its codec: an iPhone's HEVC
 * 10-bit .mov is checked in a browser that cannot decode HEVC. Reads only box headers (16 bytes each, walking from
 * the start: the moov may sit after a multi-GB mdat) and then the ftyp and moov boxes themselves, through
 * Blob.slice; mp4box parses them. Loaded lazily with the upload screen's check (mp4box is not in the initial bundle).
 */
import { createFile, MP4BoxBuffer, type Movie } from 'mp4box';
import type { VideoMeta } from '@roomwalk/shared';

/** The moov of a 10-minute phone video is a few MB; anything far larger is not a header we should read whole. */
const MAX_MOOV_BYTES = 64 * 1024 * 1024;
const MAX_BOXES = 1000;

export class NotAContainerError extends Error {
  /** True when the file does not even start with an MP4/MOV box: whatever it is, it is no MP4/MOV. */
  readonly notIsoBmff: boolean;
  constructor(why: string, notIsoBmff = false) {
    super(`Not an MP4/MOV container: ${why}`);
    this.name = 'NotAContainerError';
    this.notIsoBmff = notIsoBmff;
  }
}

async function bytes(file: Blob, start: number, end: number): Promise<ArrayBuffer> {
  return file.slice(start, end).arrayBuffer();
}

interface Box {
  type: string;
  start: number;
  size: number;
}

const TOP_LEVEL = new Set([
  'ftyp',
  'moov',
  'mdat',
  'free',
  'skip',
  'wide',
  'uuid',
  'pdin',
  'moof',
  'mfra',
  'meta',
  'styp',
  'sidx',
  'prft',
  'emsg',
  'pnot',
  'junk',
  'beam',
]);

/** Top-level boxes up to and including moov, reading 16 bytes per box. */
async function findBoxes(file: Blob): Promise<Box[]> {
  const boxes: Box[] = [];
  let at = 0;
  while (at + 8 <= file.size && boxes.length < MAX_BOXES) {
    const view = new DataView(await bytes(file, at, Math.min(file.size, at + 16)));
    let size = view.getUint32(0);
    const type = String.fromCharCode(view.getUint8(4), view.getUint8(5), view.getUint8(6), view.getUint8(7));
    if (!/^[\x20-\x7e]{4}$/.test(type) || (boxes.length === 0 && !TOP_LEVEL.has(type)))
      throw new NotAContainerError(`no box at ${at}`, boxes.length === 0);
    if (size === 1) {
      if (view.byteLength < 16) throw new NotAContainerError('truncated box header');
      size = Number(view.getBigUint64(8));
    } else if (size === 0) size = file.size - at;
    if (size < 8) throw new NotAContainerError(`box ${type} of ${size} bytes`);
    boxes.push({ type, start: at, size });
    if (type === 'moov') break;
    at += size;
  }
  return boxes;
}

/** Degrees of a track's display matrix (16.16 fixed point a, b): 0, 90, 180 or 270. */
export function rotationOf(matrix: ArrayLike<number> | undefined): number {
  if (!matrix || matrix.length < 2) return 0;
  const a = matrix[0]! / 65536;
  const b = matrix[1]! / 65536;
  const deg = Math.round((Math.atan2(b, a) * 180) / Math.PI);
  return ((deg % 360) + 360) % 360;
}

export interface ContainerMeta extends VideoMeta {
  codedWidth: number;
  codedHeight: number;
  rotation: number;
  codec: string;
}

/** Throws NotAContainerError when the file is not an MP4/MOV with a readable moov and a video track. */
export async function readContainerMeta(file: Blob): Promise<ContainerMeta> {
  const boxes = await findBoxes(file);
  const moov = boxes.find((b) => b.type === 'moov');
  if (!moov) throw new NotAContainerError('no moov box');
  if (moov.size > MAX_MOOV_BYTES || moov.start + moov.size > file.size)
    throw new NotAContainerError('moov box too large or truncated');
  const ftyp = boxes.find((b) => b.type === 'ftyp' && b.size <= 4096);
  const parts = [
    ...(ftyp ? [await bytes(file, ftyp.start, ftyp.start + ftyp.size)] : []),
    await bytes(file, moov.start, moov.start + moov.size),
  ];
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let off = 0;
  for (const p of parts) {
    joined.set(new Uint8Array(p), off);
    off += p.byteLength;
  }

  const mp4 = createFile();
  const got: { info: Movie | null; failure: string | null } = { info: null, failure: null };
  mp4.onReady = (i) => (got.info = i);
  mp4.onError = (_module: string, message: string) => (got.failure = message);
  mp4.appendBuffer(MP4BoxBuffer.fromArrayBuffer(joined.buffer, 0));
  mp4.flush();
  const ready = got.info;
  if (!ready) throw new NotAContainerError(got.failure ?? 'moov not understood');
  const track = ready.videoTracks[0];
  if (!track) throw new NotAContainerError('no video track');
  const codedWidth = track.video?.width || track.track_width;
  const codedHeight = track.video?.height || track.track_height;
  const timescale = ready.timescale || 1;
  let seconds = ready.duration / timescale;
  if (!(seconds > 0) && ready.fragment_duration?.den)
    seconds = ready.fragment_duration.num / ready.fragment_duration.den;
  if (!(seconds > 0) && track.timescale) seconds = track.duration / track.timescale;
  if (!(codedWidth > 0 && codedHeight > 0 && seconds > 0)) throw new NotAContainerError('no size or duration');
  const rotation = rotationOf(track.matrix as unknown as ArrayLike<number>);
  const quarter = rotation === 90 || rotation === 270;
  return {
    durationSeconds: seconds,
    width: quarter ? codedHeight : codedWidth,
    height: quarter ? codedWidth : codedHeight,
    codedWidth,
    codedHeight,
    rotation,
    codec: track.codec,
  };
}
