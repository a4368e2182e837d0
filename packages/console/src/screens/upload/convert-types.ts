/** The conversion worker's API (convert-worker.ts `expose`s it; convert-video.ts reaches it through comlink). */

/** What the worker found the device can do with the source. */
export interface ConversionStart {
  durationSeconds: number;
  decoder: 'hardware' | 'software';
  /** What the conversion's decoder is configured with: 'prefer-hardware' where the device has a hardware decoder. */
  decoderHint: 'prefer-hardware' | 'no-preference';
  encoder: 'hardware' | 'software';
  size: { width: number; height: number };
  /** Bits a second of what the device will make (its EncodingTarget's): the race prices the converted upload with it. */
  bitrate: number;
  codec: string;
}

/** One part of the mezzanine, in order: every part but the last has the part size. Its buffer is transferred. */
export type OnPart = (partNumber: number, bytes: Uint8Array<ArrayBuffer>) => Promise<void>;

export interface ConvertWorkerApi {
  /** Reads the source and asks the device (`isConfigSupported`): the start facts, or why it will not convert. */
  check(file: File): Promise<{ ok: true; start: ConversionStart } | { ok: false; reason: string }>;
  /**
   * Converts the checked file into a fragmented MP4 (written in order, so each part is final when full), handing each
   * part of `partSize` bytes to `onPart` as it is made and awaiting it (the caller's backpressure); answers the size.
   * Throws when decoding or encoding fails, or the mezzanine would pass `limit` bytes.
   */
  convert(partSize: number, limit: number, onProgress: (fraction: number) => void, onPart: OnPart): Promise<number>;
  /** Stops a conversion under way (its `convert` rejects). */
  abort(): void;
}
