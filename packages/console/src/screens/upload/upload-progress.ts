/**
 * The uploading dialog's progress line: while the device converts the video, 'Preparing video on this device… 40%';
 * then the upload's percentage, speed and time left; 'Resuming…' after a drop.
 */
import type { UploadProgress } from './multipart-upload.js';
import type { SendProgress } from './send-video.js';

const UPLOAD_PROGRESS_TEXTS = {
  resuming: 'Resuming…',
  measuring: 'Measuring speed…',
  preparing: 'Preparing video on this device…',
} as const;

export function formatSpeed(bytesPerSecond: number): string {
  const mb = bytesPerSecond / 1_000_000;
  if (mb >= 10) return `${Math.round(mb)} MB/s`;
  if (mb >= 0.1) return `${mb.toFixed(1)} MB/s`;
  return `${Math.max(1, Math.round(bytesPerSecond / 1000))} KB/s`;
}

export function formatTimeLeft(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s left`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  const h = Math.floor(seconds / 3600);
  const m = Math.round((seconds % 3600) / 60);
  return `about ${h} h ${m} min left`;
}

/** e.g. 'Preparing video on this device… 40%', '42% · 3.1 MB/s · about 2 min left', or '42% · Resuming…'. */
export function progressLine(
  p: SendProgress | Pick<UploadProgress, 'percent' | 'bytesPerSecond' | 'secondsLeft' | 'resuming'>,
): string {
  if ('phase' in p && p.phase === 'preparing') return `${UPLOAD_PROGRESS_TEXTS.preparing} ${p.percent}%`;
  const parts = [`${p.percent}%`];
  if (p.resuming) parts.push(UPLOAD_PROGRESS_TEXTS.resuming);
  else if (p.bytesPerSecond && p.secondsLeft !== null)
    parts.push(formatSpeed(p.bytesPerSecond), formatTimeLeft(p.secondsLeft));
  else if (p.percent < 100) parts.push(UPLOAD_PROGRESS_TEXTS.measuring);
  return parts.join(' · ');
}
