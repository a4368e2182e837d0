/** The conversion worker's messages (convert-worker.ts ↔ convert-video.ts). */

export type ConvertRequest = { type: 'convert'; file: File } | { type: 'cancel' };

export type ConvertReply =
  | { type: 'refused'; reason: string }
  | { type: 'started'; durationSeconds: number; decoder: 'hardware' | 'software'; size: { width: number; height: number }; codec: string }
  | { type: 'progress'; fraction: number }
  | { type: 'done'; buffer: ArrayBuffer }
  | { type: 'failed'; reason: string };
