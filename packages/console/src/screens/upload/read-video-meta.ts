/** Reads a video file's duration and resolution in the browser, before anything is uploaded (tours §4). */
import type { VideoMeta } from '@roomwalk/shared';

export class UnreadableVideoError extends Error {
  constructor() {
    super('This file could not be read as a video.');
    this.name = 'UnreadableVideoError';
  }
}

/** Loads only the metadata through a detached <video> element. */
export function readVideoMeta(file: Blob, timeoutMs = 20_000): Promise<VideoMeta> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    const done = (fn: () => void) => {
      clearTimeout(timer);
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
      fn();
    };
    const timer = setTimeout(() => done(() => reject(new UnreadableVideoError())), timeoutMs);
    video.preload = 'metadata';
    video.muted = true;
    video.onloadedmetadata = () => {
      const meta = { durationSeconds: video.duration, width: video.videoWidth, height: video.videoHeight };
      done(() => (Number.isFinite(meta.durationSeconds) && meta.width > 0 ? resolve(meta) : reject(new UnreadableVideoError())));
    };
    video.onerror = () => done(() => reject(new UnreadableVideoError()));
    video.src = url;
  });
}

/** The extension sent to fileGetPreSignedUrl: from the name, else from the MIME type. */
export function videoExtension(file: { name: string; type: string }): string {
  const fromName = /\.([a-z0-9]+)$/i.exec(file.name)?.[1];
  if (fromName) return fromName.toLowerCase();
  const sub = file.type.split('/')[1] ?? '';
  return ({ quicktime: 'mov', 'x-matroska': 'mkv', '3gpp': '3gp' } as Record<string, string>)[sub] ?? (sub || 'mp4');
}
