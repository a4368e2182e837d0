/**
 * The readable end of real files (e2e/support/phone-videos.ts): whole.mp4 (11 s, moov first) and the same file cut
 * at 40 % (its index still declares 11 s): what convert-worker.ts compares before it converts.
 */
import { readFile } from 'node:fs/promises';
import { ALL_FORMATS, BufferSource, Input } from 'mediabunny';
import { describe, expect, it } from 'vitest';
import { incompleteSource } from './convert-rules.js';
import { readableVideoEnd } from './readable-end.js';
import { phoneVideo, truncatedVideo } from '../../../e2e/support/phone-videos.js';

async function videoTrack(file: string) {
  // A copy made in this realm: mediabunny's sources check their argument with instanceof, and jsdom's Blob and Node's
  // buffers are not of its realm (a BufferSource reads the same way as the worker's BlobSource).
  const bytes = await readFile(file);
  const source = new BufferSource(Uint8Array.from(bytes));
  const input = new Input({ source, formats: ALL_FORMATS });
  const track = await input.getPrimaryVideoTrack();
  if (!track) throw new Error(`no video track in ${file}`);
  return track;
}

describe('the readable end of a source', () => {
  it('is the declared duration for a whole file: the device may convert it', async () => {
    const track = await videoTrack(await phoneVideo('whole'));
    const declared = await track.computeDuration();
    const readable = await readableVideoEnd(track);
    expect(declared).toBeGreaterThan(10.5);
    expect(readable).toBeCloseTo(declared, 3);
    expect(incompleteSource(declared, readable)).toBeNull();
  }, 300_000);

  it('stops where the bytes stop for a cut file whose index declares 11 s: the device leaves it to the server', async () => {
    const track = await videoTrack(await truncatedVideo());
    const declared = await track.computeDuration();
    const readable = await readableVideoEnd(track);
    expect(declared).toBeGreaterThan(10.5);
    // The first 40 % of the bytes hold about 4.4 s of the frames (the server's probe says 4.40 s).
    expect(readable).toBeGreaterThan(3.5);
    expect(readable).toBeLessThan(5.5);
    expect(incompleteSource(declared, readable)).toMatch(/incomplete/);
  }, 300_000);
});
