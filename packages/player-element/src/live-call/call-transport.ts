/** The call transport behind the live call controller: WebRTC over our socket (default) or Agora. */
import type { LocalMedia } from './media.js';

export type TransportState = 'connecting' | 'connected' | 'reconnecting' | 'disconnected' | 'failed';

export type TransportEvent =
  | { type: 'state'; state: TransportState; attempt?: number; message?: string }
  | { type: 'remote-stream'; id: string; stream: MediaStream }
  | { type: 'remote-left'; id: string }
  /** The transport could not open a device the permission probe got (Agora opens its own): what is published now. */
  | { type: 'media'; audio: boolean; video: boolean };

export interface CallTransport {
  readonly kind: 'webrtc' | 'agora';
  /** The published local stream (Agora makes its own tracks); null before connect. */
  readonly localStream: MediaStream | null;
  /** Joins the session and publishes the local media; resolves once joined. Throws PermissionDeniedError when it
   * can open neither device. */
  connect(media: LocalMedia): Promise<void>;
  /** Leaves the session, closes peer connections and the local tracks it made. */
  leave(): Promise<void>;
  on(listener: (e: TransportEvent) => void): () => void;
  /** Mute or unmute the microphone the transport's own way (Agora: the SDK's `setMuted`); rejects when that fails.
   * Without it (WebRTC) the controller turns the local audio tracks' `enabled` off and on. */
  setMicrophoneMuted?(muted: boolean): Promise<void>;
  /** Turn the camera off or back on the transport's own way (Agora: the SDK's `setEnabled`); rejects when that
   * fails. Without it (WebRTC) the controller turns the local video tracks' `enabled` off and on. */
  setCameraOff?(off: boolean): Promise<void>;
}

/** A tiny listener set, enough for one controller per transport. */
export class Emitter<T> {
  private readonly listeners = new Set<(e: T) => void>();
  on(l: (e: T) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  emit(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
}
