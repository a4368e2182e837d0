/**
 * How much of a source's video is really in the file (convert-worker.ts asks before converting): its index (the MP4's
 * sample table) declares every sample, but a file cut short by a failed copy holds only the first ones. mediabunny
 * answers no packet for a sample whose bytes lie past the file's end, so the last readable sample is found by asking
 * for packets with their data: the last one first, then a bisection on time.
 */
import { EncodedPacketSink, type InputVideoTrack } from 'mediabunny';

/** The bisection stops when the readable end is known to this many seconds. */
const PRECISION_SECONDS = 0.05;

/** The end (seconds) of the track's last sample of which the file holds the bytes; 0 when none. */
export async function readableVideoEnd(track: InputVideoTrack): Promise<number> {
  const sink = new EncodedPacketSink(track);
  const readable = async (timestamp: number) => {
    try {
      return await sink.getPacket(timestamp);
    } catch {
      return null;
    }
  };
  const last = await readable(Number.POSITIVE_INFINITY);
  if (last) return last.timestamp + last.duration;
  const first = await readable(await track.getFirstTimestamp());
  if (!first) return 0;
  // Samples are stored in time order: readable up to some time, none after it.
  let lo = first.timestamp + first.duration;
  let hi = await track.computeDuration();
  while (hi - lo > PRECISION_SECONDS) {
    const mid = (lo + hi) / 2;
    const p = await readable(mid);
    if (p) lo = Math.max(mid, p.timestamp + p.duration);
    else hi = mid;
  }
  return lo;
}
