/**
 * Start call: ask for camera and microphone; both refused aborts, one refused continues without it and
 * warns (the four permission texts of live-call/texts.ts).
 */
import { LIVE_TEXTS } from './texts.js';

export interface LocalMedia {
  stream: MediaStream;
  audio: boolean;
  video: boolean;
  /** The warning to show for 6 s, if one side was refused. */
  warning: string | null;
}

export class PermissionDeniedError extends Error {
  readonly warning = LIVE_TEXTS.bothDenied;
  constructor() {
    super(LIVE_TEXTS.permissionsRequired);
    this.name = 'PermissionDeniedError';
  }
}

export type GetUserMedia = (constraints: MediaStreamConstraints) => Promise<MediaStream>;

/** 480p camera and a speech microphone, as the call publishes them. */
export const MEDIA_CONSTRAINTS = {
  video: { width: { ideal: 640 }, height: { ideal: 480 }, frameRate: { ideal: 24, max: 30 } },
  audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
} as const satisfies MediaStreamConstraints;

const isRefusal = (err: unknown) => {
  const name = (err as { name?: string } | null)?.name;
  return (
    name === 'NotAllowedError' ||
    name === 'SecurityError' ||
    name === 'NotFoundError' ||
    name === 'NotReadableError' ||
    name === 'OverconstrainedError'
  );
};

async function tryGet(getUserMedia: GetUserMedia, c: MediaStreamConstraints): Promise<MediaStream | null> {
  try {
    return await getUserMedia(c);
  } catch (err) {
    if (isRefusal(err)) return null;
    throw err;
  }
}

export async function acquireLocalMedia(
  getUserMedia: GetUserMedia = (c) => navigator.mediaDevices.getUserMedia(c),
): Promise<LocalMedia> {
  const both = await tryGet(getUserMedia, MEDIA_CONSTRAINTS);
  if (both)
    return {
      stream: both,
      audio: both.getAudioTracks().length > 0,
      video: both.getVideoTracks().length > 0,
      warning: null,
    };
  const audio = await tryGet(getUserMedia, { audio: MEDIA_CONSTRAINTS.audio });
  if (audio) return { stream: audio, audio: true, video: false, warning: LIVE_TEXTS.cameraDenied };
  const video = await tryGet(getUserMedia, { video: MEDIA_CONSTRAINTS.video });
  if (video) return { stream: video, audio: false, video: true, warning: LIVE_TEXTS.micDenied };
  throw new PermissionDeniedError();
}
