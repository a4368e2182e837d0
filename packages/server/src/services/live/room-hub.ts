/**
 * Rooms of live viewing: one per tour and viewing session. Local sockets are served here; other nodes via the bus.
 *
 * Bounds (amplification): one socket per participant and room — a newer one replaces the older, on this node
 * or another; at most `maxPeersPerRoom` sockets of a room on a node; and the scrolls this node relays into a room pass
 * a token bucket per room, the excess coalesced per sender (the latest position wins), so fan-out per second is
 * bounded.
 */
import { LIVE_CLOSE_CODES } from '@roomwalk/shared';
import { LIVE_SOCKET_MESSAGES } from '@roomwalk/shared/schemas/socket-messages';
import type { Envelope, PeerInfo, RoomBus } from './room-bus.js';
import type { LiveRole } from './signaling-token.js';

export interface LocalPeer extends PeerInfo {
  room: string;
  /** When it joined (ms since the epoch): of two sockets of one participant, the later one stays. */
  joinedAt: number;
  send(text: string): void;
  close(code: number, reason: string): void;
}

export interface RoomLimits {
  /** Sockets of one room on one node (the visitor, the agent and a few colleagues). */
  maxPeersPerRoom: number;
  /** Token bucket of the scrolls relayed into one room: burst and sustained rate per second. */
  roomScrollBurst: number;
  roomScrollPerSecond: number;
}

const REPLACED_REASON = 'Replaced by a newer connection';
const ROOM_FULL_REASON = 'This viewing session is full';

export type JoinResult = { ok: true; present: PeerInfo[] } | { ok: false; code: number; reason: string };

/**
 * Of two sockets of one participant, true when `a` joined after `b` (peer id breaks a tie the same way on every node).
 */
const newer = (a: { at: number; peerId: string }, b: { at: number; peerId: string }) =>
  a.at > b.at || (a.at === b.at && a.peerId > b.peerId);

interface ScrollGate {
  tokens: number;
  refilledAt: number;
  /** Scrolls waiting for a token, one per sender (a later one replaces its sender's earlier one). */
  pending: Map<string, { from: LocalPeer; text: string }>;
  timer: NodeJS.Timeout | undefined;
}

export const roomKey = (tourId: string, sessionId: string) => `${tourId}:${sessionId}`;

const info = (p: PeerInfo): PeerInfo => ({ peerId: p.peerId, role: p.role, userId: p.userId });

export class RoomHub {
  private readonly rooms = new Map<string, Map<string, LocalPeer>>();
  private readonly peers = new Map<string, LocalPeer>();
  private readonly gates = new Map<string, ScrollGate>();
  private bus: RoomBus | null = null;
  /** Scroll messages relayed and dropped by coalescing (tests and operations read these). */
  readonly stats = { scrollsRelayed: 0, scrollsCoalesced: 0, replaced: 0, refusedFull: 0 };

  constructor(private readonly limits: RoomLimits) {}

  attach(bus: RoomBus): void {
    this.bus = bus;
  }

  get size(): number {
    return this.peers.size;
  }

  /**
   * Adds a socket to its room; answers the peers already there on this node (others arrive as peer_joined). An older
   * socket of the same participant here is closed (replaced); a room at its cap refuses the newcomer.
   */
  join(peer: LocalPeer): JoinResult {
    let room = this.rooms.get(peer.room);
    for (const other of room ? [...room.values()] : []) if (other.userId === peer.userId) this.replace(other);
    room = this.rooms.get(peer.room);
    if (room && room.size >= this.limits.maxPeersPerRoom) {
      this.stats.refusedFull += 1;
      return { ok: false, code: LIVE_CLOSE_CODES.roomFull, reason: ROOM_FULL_REASON };
    }
    if (!room) {
      room = new Map();
      this.rooms.set(peer.room, room);
    }
    const present = [...room.values()].map(info);
    const joined = JSON.stringify({ type: LIVE_SOCKET_MESSAGES.peerJoined, peer: info(peer) });
    for (const other of room.values()) other.send(joined);
    room.set(peer.peerId, peer);
    this.peers.set(peer.peerId, peer);
    this.bus?.publish({ r: peer.room, k: 'join', p: info(peer), at: peer.joinedAt });
    return { ok: true, present };
  }

  /** Takes an older socket of a participant out of its room at once and closes it with a final code. */
  private replace(old: LocalPeer): void {
    this.stats.replaced += 1;
    this.leave(old);
    old.close(LIVE_CLOSE_CODES.replaced, REPLACED_REASON);
  }

  leave(peer: LocalPeer): void {
    const room = this.rooms.get(peer.room);
    if (!room?.delete(peer.peerId)) return;
    this.peers.delete(peer.peerId);
    const gate = this.gates.get(peer.room);
    gate?.pending.delete(peer.peerId);
    if (room.size === 0) {
      this.rooms.delete(peer.room);
      if (gate) clearTimeout(gate.timer);
      this.gates.delete(peer.room);
    }
    const left = JSON.stringify({ type: LIVE_SOCKET_MESSAGES.peerLeft, peer: info(peer) });
    for (const other of room.values()) other.send(left);
    this.bus?.publish({ r: peer.room, k: 'leave', p: info(peer) });
  }

  /** Hands `text` to the others in the sender's room (or to one peer), on every node; `only` keeps it to one role. */
  relay(from: LocalPeer, text: string, opts: { to?: string; only?: LiveRole } = {}): void {
    // A socket already replaced or gone (its last frames may still arrive while it closes) speaks for nobody.
    if (this.peers.get(from.peerId) !== from) return;
    const env: Envelope = {
      r: from.room,
      k: 'msg',
      f: from.peerId,
      t: text,
      ...(opts.to ? { to: opts.to } : {}),
      ...(opts.only ? { only: opts.only } : {}),
    };
    this.deliver(env);
    // A directed message to a peer on this node needs no other node.
    if (!(opts.to && this.peers.get(opts.to)?.room === from.room)) this.bus?.publish(env);
  }

  /**
   * A scroll position for everyone else in the room, through the room's token bucket: within it, relayed at once;
   * beyond it, kept as the sender's latest position (replacing an earlier one still waiting) and relayed when a token
   * is free. A sender's positions stay in order; what waits is bounded by the room's sockets.
   */
  relayScroll(from: LocalPeer, text: string): void {
    if (this.peers.get(from.peerId) !== from) return;
    const gate = this.gate(from.room);
    this.refill(gate);
    if (gate.pending.has(from.peerId) || gate.tokens < 1) {
      if (gate.pending.has(from.peerId)) this.stats.scrollsCoalesced += 1;
      gate.pending.delete(from.peerId);
      gate.pending.set(from.peerId, { from, text });
      this.schedule(from.room, gate);
      return;
    }
    gate.tokens -= 1;
    this.stats.scrollsRelayed += 1;
    this.relay(from, text);
  }

  private gate(room: string): ScrollGate {
    let g = this.gates.get(room);
    if (!g) {
      g = { tokens: this.limits.roomScrollBurst, refilledAt: Date.now(), pending: new Map(), timer: undefined };
      this.gates.set(room, g);
    }
    return g;
  }

  private refill(g: ScrollGate): void {
    const now = Date.now();
    g.tokens = Math.min(
      this.limits.roomScrollBurst,
      g.tokens + ((now - g.refilledAt) / 1000) * this.limits.roomScrollPerSecond,
    );
    g.refilledAt = now;
  }

  private schedule(room: string, g: ScrollGate): void {
    if (g.timer || g.pending.size === 0) return;
    const waitMs = Math.max(1, Math.ceil(((1 - g.tokens) / this.limits.roomScrollPerSecond) * 1000));
    g.timer = setTimeout(() => {
      g.timer = undefined;
      if (this.gates.get(room) !== g) return;
      this.refill(g);
      for (const [peerId, p] of g.pending) {
        if (g.tokens < 1) break;
        g.pending.delete(peerId);
        g.tokens -= 1;
        this.stats.scrollsRelayed += 1;
        this.relay(p.from, p.text);
      }
      this.schedule(room, g);
    }, waitMs);
    g.timer.unref();
  }

  /** An envelope from another node. */
  onRemote(env: Envelope): void {
    const room = this.rooms.get(env.r);
    if (!room) return;
    switch (env.k) {
      case 'join': {
        if (!env.p) return;
        // The same participant joined on another node: whichever socket is older goes (each node decides the same way).
        this.replaceOlderThan(env.r, env.p, env.at);
        if (!this.rooms.has(env.r)) return;
        const joined = JSON.stringify({ type: LIVE_SOCKET_MESSAGES.peerJoined, peer: info(env.p) });
        for (const p of room.values()) {
          p.send(joined);
          // Introduce our peers to the newcomer, so presence is complete across nodes.
          this.bus?.publish({ r: env.r, k: 'hello', to: env.p.peerId, p: info(p), at: p.joinedAt });
        }
        return;
      }
      case 'hello': {
        if (env.p) this.replaceOlderThan(env.r, env.p, env.at);
        const target = env.to ? this.rooms.get(env.r)?.get(env.to) : undefined;
        if (target && env.p) target.send(JSON.stringify({ type: LIVE_SOCKET_MESSAGES.peerJoined, peer: info(env.p) }));
        return;
      }
      case 'leave': {
        if (!env.p) return;
        const left = JSON.stringify({ type: LIVE_SOCKET_MESSAGES.peerLeft, peer: info(env.p) });
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

  /** Replaces this node's sockets of `remote`'s participant in `room` that joined before it. */
  private replaceOlderThan(roomKey: string, remote: PeerInfo, at: number | undefined): void {
    const room = this.rooms.get(roomKey);
    if (!room) return;
    // A node without join times (an older version) only announces newcomers: theirs is the newer one.
    const theirs = { at: at ?? Number.POSITIVE_INFINITY, peerId: remote.peerId };
    for (const p of [...room.values()]) {
      if (
        p.userId === remote.userId &&
        p.peerId !== remote.peerId &&
        newer(theirs, { at: p.joinedAt, peerId: p.peerId })
      )
        this.replace(p);
    }
  }

  /** Closes every local socket (tests drop connections with this; shutdown uses 1001). */
  closeAll(code: number, reason: string): void {
    for (const g of this.gates.values()) clearTimeout(g.timer);
    this.gates.clear();
    for (const p of [...this.peers.values()]) p.close(code, reason);
  }
}
