/**
 * Which frames of an H.264 or HEVC stream no other frame refers to, read from the NAL unit header of each packet's
 * first slice: a few bytes at the packet's place in the file, nothing decoded. ffmpeg's `-skip_frame noref` skips
 * exactly these (H.264: nal_ref_idc 0; HEVC: the sub-layer non-reference types TRAIL_N, TSA_N, STSA_N, RADL_N,
 * RASL_N and the reserved N10/N12/N14), so the longest run of them in display order tells whether skipping them can
 * leave a 1/15 s window of the tour without a decoded frame (media/source-frames.ts).
 *
 * Packets are read as length-prefixed NAL units (MP4 and Matroska store them so, with 4-byte lengths in practice); a
 * packet that does not parse so (Annex B start codes, another length size, a read past the end) makes the answer
 * unknown (null), and nothing is skipped on its account.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { setImmediate as turn } from 'node:timers/promises';

/** A video packet's presentation time and where its bytes lie in the file (ffprobe's pts_time, pos, size). */
export interface PacketPlace {
  pts: number;
  pos: number;
  size: number;
}

/** Bytes read at a time: the length and header of a packet's first NAL units. */
const PEEK = 64;
/**
 * Packets read between two turns of the event loop. The reads are synchronous: a 64-byte read from the page cache
 * takes microseconds, where an asynchronous one waits its turn in libuv's pool (1,800 packets: about 270 ms async).
 */
const BATCH = 2000;

/** Whether a NAL unit header (its first byte, and the second for HEVC) is a slice, and if so a non-reference one. */
function slice(codec: 'h264' | 'hevc', b0: number): { slice: boolean; nonRef: boolean } {
  if (codec === 'h264') {
    const type = b0 & 0x1f;
    return { slice: type >= 1 && type <= 5, nonRef: (b0 & 0x60) === 0 };
  }
  const type = (b0 >> 1) & 0x3f;
  return { slice: type <= 31, nonRef: type < 16 && type % 2 === 0 };
}

/**
 * The longest run of consecutive non-reference frames in display order (0: every frame is a reference), or null when
 * a packet cannot be read as length-prefixed NAL units or has no time.
 */
export async function longestNonReferenceRun(
  path: string,
  codec: 'h264' | 'hevc',
  packets: PacketPlace[],
): Promise<number | null> {
  if (!packets.length || packets.some((p) => !Number.isFinite(p.pts) || !(p.pos >= 0) || !(p.size > 0))) return null;
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(PEEK);
    const nonRef = new Map<PacketPlace, boolean>();
    for (const [i, p] of packets.entries()) {
      if (i > 0 && i % BATCH === 0) await turn();
      let at = 0;
      let found: boolean | null = null;
      while (found === null) {
        if (at + 5 > p.size) return null;
        const bytesRead = readSync(fd, buf, 0, Math.min(PEEK, p.size - at), p.pos + at);
        if (bytesRead < 5) return null;
        const length = buf.readUInt32BE(0);
        if (length < 1 || at + 4 + length > p.size) return null;
        const nal = slice(codec, buf[4]!);
        if (nal.slice) found = nal.nonRef;
        at += 4 + length;
      }
      nonRef.set(p, found);
    }
    let longest = 0;
    let run = 0;
    for (const p of [...packets].sort((a, b) => a.pts - b.pts)) {
      run = nonRef.get(p) ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    return longest;
  } finally {
    closeSync(fd);
  }
}
