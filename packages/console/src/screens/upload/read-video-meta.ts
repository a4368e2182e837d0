/**
 * Reads a video file's duration and resolution in the browser, before anything is uploaded:
 * from the MP4/MOV container first (mp4box, any codec: HEVC 10-bit is checked in a browser that cannot decode it);
 * when the file is no MP4/MOV (WebM, MKV), through a <video> element; when neither can read it, the server decides
 * (the file is uploaded and processing gives the verdict) rather than the screen refusing it. One case the browser
 * can tell for sure: a file named or typed as MP4/MOV that does not start with an MP4/MOV box and that the <video>
 * element cannot read either is no video at all (random bytes, a renamed document): refused before the upload.
 */
import type { VideoMeta } from '@roomwalk/shared';

export type VideoMetaSource = 'container' | 'video-element';

/** probeVideo's answer for a file that is certainly no video. */
export const NOT_A_VIDEO = 'not-a-video';

/** Names and types that promise an MP4/MOV (ISO base media) file. */
function claimsMp4(file: Blob): boolean {
  const name = (file as Partial<File>).name ?? '';
  return /\.(mp4|m4v|mov|3gp)$/i.test(name) || /^video\/(mp4|quicktime|3gpp)$/i.test(file.type);
}

/**
 * What the screen checks; NOT_A_VIDEO for a file that claims to be an MP4/MOV but is none and that the browser cannot
 * play either; null when the browser cannot read the file and the server must decide.
 */
export async function probeVideo(
  file: Blob,
  deps: { container?: (f: Blob) => Promise<VideoMeta>; element?: (f: Blob) => Promise<VideoMeta> } = {},
): Promise<(VideoMeta & { source: VideoMetaSource }) | typeof NOT_A_VIDEO | null> {
  const container = deps.container ?? (async (f: Blob) => (await import('./container-meta.js')).readContainerMeta(f));
  let notMp4 = false;
  try {
    return { ...(await container(file)), source: 'container' };
  } catch (e) {
    // Not an MP4/MOV (or one mp4box cannot read): ask the browser's own demuxer and decoder.
    notMp4 = (e as { notIsoBmff?: boolean }).notIsoBmff === true;
  }
  try {
    return { ...(await (deps.element ?? readVideoMeta)(file)), source: 'video-element' };
  } catch {
    return notMp4 && claimsMp4(file) ? NOT_A_VIDEO : null;
  }
}

class UnreadableVideoError extends Error {
  constructor() {
    super('This file could not be read as a video.');
    this.name = 'UnreadableVideoError';
  }
}

/** Loads only the metadata through a detached <video> element. */
function readVideoMeta(file: Blob, timeoutMs = 20_000): Promise<VideoMeta> {
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
      done(() =>
        Number.isFinite(meta.durationSeconds) && meta.width > 0 ? resolve(meta) : reject(new UnreadableVideoError()),
      );
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
