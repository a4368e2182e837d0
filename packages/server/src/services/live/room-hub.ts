/** Rooms of live viewing: one per tour and viewing session. Local sockets are served here; other nodes via the bus. */
import type { Envelope, PeerInfo, RoomBus } from './room-bus.js';
import type { LiveRole } from './signaling-token.js';

export interface LocalPeer extends PeerInfo {
  room: string;
  send(text: string): void;
  close(code: number, reason: string): void;
}

export const roomKey = (tourId: string, sessionId: string) => `${tourId}:${sessionId}`;

export const SERVER_MESSAGES = {
  welcome: 'roomwalk_welcome',
  peerJoined: 'roomwalk_peer_joined',
  peerLeft: 'roomwalk_peer_left',
  error: 'roomwalk_error',
} as const;

const info = (p: PeerInfo): PeerInfo => ({ peerId: p.peerId, role: p.role, userId: p.userId });

export class RoomHub {
  private readonly rooms = new Map<string, Map<string, LocalPeer>>();
  private readonly peers = new Map<string, LocalPeer>();
  private bus: RoomBus | null = null;

  attach(bus: RoomBus): void {
    this.bus = bus;
  }

  get size(): number {
    return this.peers.size;
  }

  /** Adds a socket to its room; answers the peers already there on this node (others arrive as peer_joined). */
  join(peer: LocalPeer): PeerInfo[] {
    let room = this.rooms.get(peer.room);
    if (!room) {
      room = new Map();
      this.rooms.set(peer.room, room);
    }
    const present = [...room.values()].map(info);
    const joined = JSON.stringify({ type: SERVER_MESSAGES.peerJoined, peer: info(peer) });
    for (const other of room.values()) other.send(joined);
    room.set(peer.peerId, peer);
    this.peers.set(peer.peerId, peer);
    this.bus?.publish({ r: peer.room, k: 'join', p: info(peer) });
    return present;
  }

  leave(peer: LocalPeer): void {
    const room = this.rooms.get(peer.room);
    if (!room?.delete(peer.peerId)) return;
    this.peers.delete(peer.peerId);
    if (room.size === 0) this.rooms.delete(peer.room);
    const left = JSON.stringify({ type: SERVER_MESSAGES.peerLeft, peer: info(peer) });
    for (const other of room.values()) other.send(left);
    this.bus?.publish({ r: peer.room, k: 'leave', p: info(peer) });
  }

  /** Hands `text` to the others in the sender's room (or to one peer), on every node; `only` keeps it to one role. */
  relay(from: LocalPeer, text: string, opts: { to?: string; only?: LiveRole } = {}): void {
    const env: Envelope = { r: from.room, k: 'msg', f: from.peerId, t: text, ...(opts.to ? { to: opts.to } : {}), ...(opts.only ? { only: opts.only } : {}) };
    this.deliver(env);
    // A directed message to a peer on this node needs no other node.
    if (!(opts.to && this.peers.get(opts.to)?.room === from.room)) this.bus?.publish(env);
  }

  /** An envelope from another node. */
  onRemote(env: Envelope): void {
    const room = this.rooms.get(env.r);
    if (!room) return;
    switch (env.k) {
      case 'join': {
        if (!env.p) return;
        const joined = JSON.stringify({ type: SERVER_MESSAGES.peerJoined, peer: info(env.p) });
        for (const p of room.values()) {
          p.send(joined);
          // Introduce our peers to the newcomer, so presence is complete across nodes.
          this.bus?.publish({ r: env.r, k: 'hello', to: env.p.peerId, p: info(p) });
        }
        return;
      }
      case 'hello': {
        const target = env.to ? room.get(env.to) : undefined;
        if (target && env.p) target.send(JSON.stringify({ type: SERVER_MESSAGES.peerJoined, peer: info(env.p) }));
        return;
      }
      case 'leave': {
        if (!env.p) return;
        const left = JSON.stringify({ type: SERVER_MESSAGES.peerLeft, peer: info(env.p) });
        for (const p of room.values()) p.send(left);
        return;
      }
      case 'msg':
        this.deliver(env);
    }
  }

  private deliver(env: Envelope): void {
    const room = this.rooms.get(env.r);
    if (!room || env.t === undefined) return;
    if (env.to) {
      const target = room.get(env.to);
      if (target && target.peerId !== env.f && (!env.only || target.role === env.only)) target.send(env.t);
      return;
    }
    for (const p of room.values()) if (p.peerId !== env.f && (!env.only || p.role === env.only)) p.send(env.t);
  }

  /** Closes every local socket (tests drop connections with this; shutdown uses 1001). */
  closeAll(code: number, reason: string): void {
    for (const p of [...this.peers.values()]) p.close(code, reason);
  }
}
