/**
 * Detects the container of an untrusted file from its first bytes, so ffprobe/ffmpeg are run with a forced demuxer
 * from a whitelist instead of letting them guess among every format they know (image2, concat, hls, ... each a way
 * to reach other files or parsers we do not want to expose).
 */
import { open } from 'node:fs/promises';

/** Demuxer names (ffmpeg `-f`) we accept, keyed by the container family. */
export const ALLOWED_DEMUXERS = {
  /** ISO BMFF: mp4, mov, m4v, 3gp, 3g2 — one demuxer in ffmpeg. */
  mp4: 'mov',
  /** Matroska and WebM. */
  matroska: 'matroska',
  /**
   * A raw H.265 Annex B stream (the upload form accepts `.hevc`); it has no timestamps, so its frame rate is assumed.
   */
  hevc: 'hevc',
} as const;
export type ContainerKind = keyof typeof ALLOWED_DEMUXERS;

/** Top-level box types that can open an ISO BMFF / QuickTime file. */
const ISO_FIRST_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot']);

/** The container family of `path`, or null when it is none we accept. */
export async function sniffContainer(path: string): Promise<ContainerKind | null> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return sniffBytes(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** Pure part of {@link sniffContainer}, for tests. */
export function sniffBytes(head: Buffer): ContainerKind | null {
  if (head.length >= 12) {
    const type = head.toString('latin1', 4, 8);
    const size = head.readUInt32BE(0);
    // size 0 (to end of file) and 1 (64-bit size follows) are legal; otherwise a box is at least its 8-byte header.
    if (ISO_FIRST_BOXES.has(type) && (size === 0 || size === 1 || size >= 8)) return 'mp4';
  }
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'matroska';
  // Annex B start code (3 or 4 bytes) followed by a VPS NAL unit header (type 32) — how every HEVC stream begins.
  const start =
    head[0] === 0 && head[1] === 0 && head[2] === 1
      ? 3
      : head[0] === 0 && head[1] === 0 && head[2] === 0 && head[3] === 1
        ? 4
        : -1;
  if (start > 0 && head.length > start + 1 && ((head[start]! >> 1) & 0x3f) === 32) return 'hevc';
  return null;
}

/** Top-level ISO BMFF boxes a cut-off recording ends in (the media data, or the index when it comes last). */
const CUT_BOXES = new Set(['mdat', 'moov', 'free', 'skip', 'wide', 'uuid', 'moof', 'mfra']);

/**
 * True when an MP4/MOV file ends inside a recognised top-level box: the file was cut off part-way (an upload or copy
 * that stopped), rather than being something that is not a video at all. Walks box headers only (16 bytes each).
 */
export async function endsInsideBox(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const { size: fileSize } = await handle.stat();
    const header = Buffer.alloc(16);
    let offset = 0;
    for (let boxes = 0; offset + 8 <= fileSize && boxes < 10_000; boxes++) {
      const { bytesRead } = await handle.read(header, 0, 16, offset);
      const type = header.toString('latin1', 4, 8);
      let size = header.readUInt32BE(0);
      if (size === 1 && bytesRead >= 16) size = Number(header.readBigUInt64BE(8));
      if (size === 0) return false; // runs to the end of the file by definition
      if (size < 8) return false;
      if (offset + size > fileSize) return CUT_BOXES.has(type);
      offset += size;
    }
    return false;
  } finally {
    await handle.close();
  }
}
