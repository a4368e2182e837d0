/**
 * The default call transport: browser WebRTC, peer to peer, with offers, answers and ICE candidates carried by our
 * own socket (`roomwalk_signal`). The host offers to each viewer that says it is ready; viewers answer. Peers are
 * keyed by participant id, so a socket reconnect (new peer id) keeps a connected call as it is.
 */
import { TIMINGS_MS, MAX_RECONNECTS } from '@roomwalk/shared/constants';
import { Emitter, type CallTransport, type TransportEvent } from './call-transport.js';
import type { LiveSocket } from './live-socket.js';
import type { LocalMedia } from './media.js';
import { LIVE_MESSAGES, type LiveRole, type ServerMessage, type SignalData, type SignalMessage } from './protocol.js';
import { LIVE_TEXTS } from './texts.js';

/** crypto.randomUUID needs a secure context; getRandomValues does not. */
const randomId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');

interface Peer {
  userId: string;
  /** The remote side's call attempt this connection belongs to. */
  call: string;
  peerId: string;
  pc: RTCPeerConnection;
  pendingIce: RTCIceCandidateInit[];
  restarts: number;
  stream: MediaStream | null;
}

export interface WebRtcTransportOptions {
  role: LiveRole;
  RTCPeerConnectionImpl?: typeof RTCPeerConnection;
  restartDelayMs?: number;
}

export class WebRtcTransport implements CallTransport {
  readonly kind = 'webrtc' as const;
  private readonly events = new Emitter<TransportEvent>();
  private readonly peers = new Map<string, Peer>();
  private media: LocalMedia | null = null;
  private release: (() => void) | null = null;
  private offs: Array<() => void> = [];
  private callId = '';

  constructor(
    private readonly socket: LiveSocket,
    private readonly opts: WebRtcTransportOptions,
  ) {}

  get localStream(): MediaStream | null {
    return this.media?.stream ?? null;
  }

  on(listener: (e: TransportEvent) => void): () => void {
    return this.events.on(listener);
  }

  async connect(media: LocalMedia): Promise<void> {
    this.media = media;
    this.callId = randomId();
    this.joinedOn = null;
    this.events.emit({ type: 'state', state: 'connecting' });
    this.offs.push(
      this.socket.onStatus((s) => {
        if (s.state === 'open') this.joined();
        else if (s.state === 'reconnecting')
          this.events.emit({ type: 'state', state: 'reconnecting', attempt: s.attempt ?? 1 });
        else if (s.state === 'failed')
          this.events.emit({
            type: 'state',
            state: 'failed',
            message: s.message ?? LIVE_TEXTS.connectionErrorOccurred,
          });
      }),
      this.socket.onMessage((m) => this.onMessage(m)),
    );
    this.release = this.socket.acquire();
    await this.socket.ready();
    // Already open (scroll sync opened it first): the status listener saw no change.
    this.joined();
  }

  async leave(): Promise<void> {
    this.socket.send({ type: LIVE_MESSAGES.signal, data: { kind: 'bye' } satisfies SignalData });
    for (const p of [...this.peers.values()]) this.drop(p);
    for (const off of this.offs.splice(0)) off();
    this.release?.();
    this.release = null;
    this.media = null;
    this.events.emit({ type: 'state', state: 'disconnected' });
  }

  private joinedOn: string | null = null;
  private joined(): void {
    const w = this.socket.welcome;
    if (!w || !this.media || this.joinedOn === w.peerId) return;
    this.joinedOn = w.peerId;
    this.events.emit({ type: 'state', state: 'connected' });
    this.signal({ kind: 'ready', call: this.callId });
  }

  private signal(data: SignalData, to?: string): void {
    this.socket.send({ type: LIVE_MESSAGES.signal, ...(to ? { to } : {}), data });
  }

  private onMessage(m: ServerMessage): void {
    if (!this.media) return;
    if (m.type === LIVE_MESSAGES.peerLeft) {
      const p = this.peers.get(m.peer.userId);
      // A connected call outlives its signalling socket; only an unconnected one goes with it.
      if (p && p.peerId === m.peer.peerId && p.pc.connectionState !== 'connected') this.drop(p);
      return;
    }
    if (m.type !== LIVE_MESSAGES.signal || m.fromRole === this.opts.role) return;
    void this.onSignal(m).catch(() => {
      // A signalling step that fails leaves that peer to its own failure handling (restart or drop).
    });
  }

  private async onSignal(m: SignalMessage): Promise<void> {
    const d = m.data;
    const existing = this.peers.get(m.fromUser);
    if (existing) existing.peerId = m.from;
    switch (d.kind) {
      case 'ready': {
        if (this.opts.role === 'viewer') {
          if (!d.reply) this.signal({ kind: 'ready', call: this.callId, reply: true }, m.from);
          return;
        }
        // The same call saying ready again (its reply, or after a socket reconnect) keeps its connection.
        if (
          existing &&
          existing.call === d.call &&
          existing.pc.connectionState !== 'failed' &&
          existing.pc.connectionState !== 'closed'
        )
          return;
        if (existing) this.drop(existing);
        const p = this.createPeer(m.fromUser, m.from, d.call);
        await this.offer(p, false);
        return;
      }
      case 'offer': {
        if (this.opts.role !== 'viewer') return;
        let p = existing;
        const reuse = p && d.restart && p.pc.signalingState !== 'closed';
        if (!reuse) {
          if (p) this.drop(p);
          p = this.createPeer(m.fromUser, m.from, '');
        }
        await p!.pc.setRemoteDescription({ type: 'offer', sdp: d.sdp });
        // After the offer, so our tracks take the transceivers it created (one m-line per kind).
        if (!reuse) for (const track of this.media!.stream.getTracks()) p!.pc.addTrack(track, this.media!.stream);
        const answer = await p!.pc.createAnswer();
        await p!.pc.setLocalDescription(answer);
        this.signal({ kind: 'answer', sdp: answer.sdp ?? '' }, m.from);
        await this.flushIce(p!);
        return;
      }
      case 'answer': {
        if (!existing || existing.pc.signalingState !== 'have-local-offer') return;
        await existing.pc.setRemoteDescription({ type: 'answer', sdp: d.sdp });
        await this.flushIce(existing);
        return;
      }
      case 'ice': {
        if (!existing || !d.candidate) return;
        if (existing.pc.remoteDescription) await existing.pc.addIceCandidate(d.candidate);
        else existing.pendingIce.push(d.candidate);
        return;
      }
      case 'bye':
        if (existing) this.drop(existing);
    }
  }

  private createPeer(userId: string, peerId: string, call: string): Peer {
    const Impl = this.opts.RTCPeerConnectionImpl ?? globalThis.RTCPeerConnection;
    const pc = new Impl({ iceServers: (this.socket.welcome?.iceServers ?? []) as RTCIceServer[] });
    const p: Peer = { userId, call, peerId, pc, pendingIce: [], restarts: 0, stream: null };
    this.peers.set(userId, p);
    pc.onicecandidate = (ev) => {
      if (ev.candidate) this.signal({ kind: 'ice', candidate: ev.candidate.toJSON() }, p.peerId);
    };
    pc.ontrack = (ev) => {
      p.stream = ev.streams[0] ?? p.stream ?? new MediaStream();
      if (!p.stream.getTracks().includes(ev.track)) p.stream.addTrack(ev.track);
      this.events.emit({ type: 'remote-stream', id: userId, stream: p.stream });
    };
    pc.onconnectionstatechange = () => {
      if (this.peers.get(userId) !== p) return;
      if (pc.connectionState === 'connected') p.restarts = 0;
      if (pc.connectionState === 'failed') this.onPeerFailed(p);
      if (pc.connectionState === 'closed') this.drop(p);
    };
    return p;
  }

  /** The host restarts ICE on a failed connection, up to 3 times 3 s apart; then the peer is dropped. */
  private onPeerFailed(p: Peer): void {
    if (this.opts.role !== 'host') return;
    if (p.restarts >= MAX_RECONNECTS) {
      this.drop(p);
      return;
    }
    p.restarts += 1;
    setTimeout(() => {
      if (this.peers.get(p.userId) === p && p.pc.connectionState === 'failed')
        void this.offer(p, true).catch(() => this.drop(p));
    }, this.opts.restartDelayMs ?? TIMINGS_MS.reconnectDelay);
  }

  private async offer(p: Peer, restart: boolean): Promise<void> {
    const media = this.media!;
    if (!restart) {
      for (const track of media.stream.getTracks()) p.pc.addTrack(track, media.stream);
      // Receive both kinds even when we send only one (audio-only host still sees the viewer).
      if (!media.video) p.pc.addTransceiver('video', { direction: 'recvonly' });
      if (!media.audio) p.pc.addTransceiver('audio', { direction: 'recvonly' });
    }
    const offer = await p.pc.createOffer(restart ? { iceRestart: true } : undefined);
    await p.pc.setLocalDescription(offer);
    this.signal({ kind: 'offer', sdp: offer.sdp ?? '', ...(restart ? { restart: true } : {}) }, p.peerId);
  }

  private async flushIce(p: Peer): Promise<void> {
    for (const c of p.pendingIce.splice(0)) await p.pc.addIceCandidate(c).catch(() => undefined);
  }

  private drop(p: Peer): void {
    if (this.peers.get(p.userId) !== p) return;
    this.peers.delete(p.userId);
    p.pc.onconnectionstatechange = null;
    p.pc.close();
    this.events.emit({ type: 'remote-left', id: p.userId });
  }
}
