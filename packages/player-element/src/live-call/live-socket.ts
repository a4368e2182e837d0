/**
 * The one socket of a live viewing session: scroll sync and call signalling share it. Reconnects up to 3 times,
 * 3 s apart, then fails with "Failed to reconnect after multiple attempts". Users hold leases: it opens on
 * the first and closes when the last is released (so turning scroll sync off does not cut a call's signalling).
 */
import { MAX_RECONNECTS, TIMINGS_MS } from '@roomwalk/shared/constants';
import { liveServerMessageSchema, parseSocketMessage } from '@roomwalk/shared/schemas/socket-messages';
import {
  CLOSE_CODES,
  FINAL_CLOSE_CODES,
  LIVE_MESSAGES,
  closeText,
  helloMessage,
  socketUrl,
  type ServerMessage,
  type WelcomeMessage,
} from './protocol.js';
import { LIVE_TEXTS } from './texts.js';
import { grantFor } from '../api/access-grant.js';

export type SocketState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed' | 'failed';

export interface SocketStatus {
  state: SocketState;
  /** Reconnect attempt (1..3) while reconnecting. */
  attempt?: number;
  /** Close code of the last close, when there was one. */
  code?: number;
  /** The spec's text for a failure. */
  message?: string;
}

export interface LiveSocketOptions {
  /** Server base URL (http(s) or ws(s)). */
  url: string;
  tourId: string;
  /** Viewing session id; a signalling token carries its own, so viewers may leave it out. */
  session?: string | null;
  /** Signalling token, or the host's session token. */
  token: string;
  /** A viewer's audience link: the server sends it the agent's frames in the link's numbering. */
  link?: string;
  reconnectDelayMs?: number;
  maxReconnects?: number;
  /** For tests and non-browser hosts. */
  WebSocketImpl?: typeof WebSocket;
}

type Listener<T> = (value: T) => void;

export class LiveSocket {
  private ws: WebSocket | null = null;
  private leases = 0;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private wanted = false;
  private readonly statusListeners = new Set<Listener<SocketStatus>>();
  private readonly messageListeners = new Set<Listener<ServerMessage>>();
  private _status: SocketStatus = { state: 'idle' };
  private _welcome: WelcomeMessage | null = null;

  constructor(private readonly opts: LiveSocketOptions) {}

  get status(): SocketStatus {
    return this._status;
  }

  /** The server's welcome on the current connection (peer id, ICE servers, peers present); null until open. */
  get welcome(): WelcomeMessage | null {
    return this._welcome;
  }

  get isOpen(): boolean {
    return this._status.state === 'open';
  }

  onStatus(l: Listener<SocketStatus>): () => void {
    this.statusListeners.add(l);
    return () => this.statusListeners.delete(l);
  }

  onMessage(l: Listener<ServerMessage>): () => void {
    this.messageListeners.add(l);
    return () => this.messageListeners.delete(l);
  }

  /** Takes a lease: opens the socket if it is the first. Returns the release function. */
  acquire(): () => void {
    this.leases += 1;
    if (this.leases === 1 || this._status.state === 'failed' || this._status.state === 'closed') this.open();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.leases -= 1;
      if (this.leases === 0) this.shutdown();
    };
  }

  /** Sends a message if the socket is open; answers whether it went. */
  send(message: unknown): boolean {
    if (!this.ws || this.ws.readyState !== 1 || this._status.state !== 'open') return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Resolves with the welcome of the current or next connection; rejects if the socket fails first. */
  ready(): Promise<WelcomeMessage> {
    if (this._welcome && this.isOpen) return Promise.resolve(this._welcome);
    return new Promise((resolve, reject) => {
      const offMsg = this.onMessage((m) => {
        if (m.type === LIVE_MESSAGES.welcome) {
          offMsg();
          offStatus();
          resolve(m);
        }
      });
      const offStatus = this.onStatus((s) => {
        if (s.state === 'failed' || s.state === 'closed') {
          offMsg();
          offStatus();
          reject(new Error(s.message ?? LIVE_TEXTS.connectionErrorOccurred));
        }
      });
    });
  }

  private setStatus(s: SocketStatus): void {
    this._status = s;
    for (const l of [...this.statusListeners]) l(s);
  }

  private open(): void {
    clearTimeout(this.timer);
    this.wanted = true;
    this.attempts = 0;
    this.connect();
  }

  private connect(): void {
    const Impl = this.opts.WebSocketImpl ?? globalThis.WebSocket;
    let ws: WebSocket;
    try {
      ws = new Impl(socketUrl(this.opts.url, { tourId: this.opts.tourId, session: this.opts.session ?? null }));
    } catch {
      this.wanted = false;
      this.setStatus({ state: 'failed', message: LIVE_TEXTS.websocketCreateFailed });
      return;
    }
    this.ws = ws;
    this._welcome = null;
    if (this.attempts === 0) this.setStatus({ state: 'connecting' });
    // The credentials go as the first message, not in the URL (docs/access-and-privacy.md: no capability in a URL).
    ws.onopen = () => {
      if (this.ws === ws)
        ws.send(helloMessage({ token: this.opts.token, access: grantFor(this.opts.tourId), link: this.opts.link }));
    };
    ws.onmessage = (ev: MessageEvent) => {
      // Parsed against the shared schema; what does not parse (a newer server's message, a broken one) is dropped.
      const m = parseSocketMessage(liveServerMessageSchema, String(ev.data)) as ServerMessage | null;
      if (!m) return;
      if (m.type === LIVE_MESSAGES.welcome) {
        // Open for us means admitted to the room, not just the TCP handshake.
        this._welcome = m;
        this.attempts = 0;
        this.setStatus({ state: 'open' });
      }
      for (const l of [...this.messageListeners]) l(m);
    };
    ws.onclose = (ev: CloseEvent) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this._welcome = null;
      if (!this.wanted) return this.setStatus({ state: 'closed', code: ev.code });
      if (FINAL_CLOSE_CODES.has(ev.code)) {
        this.wanted = false;
        return this.setStatus({ state: 'failed', code: ev.code, message: closeText(ev.code) });
      }
      const max = this.opts.maxReconnects ?? MAX_RECONNECTS;
      if (this.attempts >= max) {
        this.wanted = false;
        return this.setStatus({ state: 'failed', code: ev.code, message: LIVE_TEXTS.reconnectFailed });
      }
      this.attempts += 1;
      this.setStatus({ state: 'reconnecting', attempt: this.attempts, code: ev.code });
      this.timer = setTimeout(() => {
        if (this.wanted) this.connect();
      }, this.opts.reconnectDelayMs ?? TIMINGS_MS.reconnectDelay);
    };
    // An error is always followed by close, which decides; nothing to do here.
    ws.onerror = () => undefined;
  }

  private shutdown(): void {
    this.wanted = false;
    clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    this._welcome = null;
    if (ws && (ws.readyState === 0 || ws.readyState === 1)) ws.close(CLOSE_CODES.normal);
    if (this._status.state !== 'failed') this.setStatus({ state: 'closed' });
  }
}
