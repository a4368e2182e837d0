/**
 * RoomHub on its own: two hubs joined by an in-memory bus decide the same way which of one
 * participant's sockets stays, even when both join at the same moment; and the room's scroll bucket on a fake clock.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIVE_CLOSE_CODES } from '@roomwalk/shared';
import { RoomHub, type LocalPeer } from '../src/services/live/room-hub.js';
import type { Envelope, RoomBus } from '../src/services/live/room-bus.js';

const LIMITS = { maxPeersPerRoom: 6, roomScrollBurst: 100, roomScrollPerSecond: 50 };

/** Hubs that hear each other's envelopes, delivered only when `flush` is called (so joins can cross in flight). */
function cluster(n: number, limits = LIMITS) {
  const queue: Array<{ from: number; e: Envelope }> = [];
  const hubs = Array.from({ length: n }, () => new RoomHub(limits));
  hubs.forEach((hub, i) => {
    const bus: RoomBus = {
      kind: 'postgres',
      nodeId: String(i),
      publish: (e) => void queue.push({ from: i, e: structuredClone(e) }),
      close: async () => undefined,
    };
    hub.attach(bus);
  });
  const flush = () => {
    while (queue.length > 0) {
      const { from, e } = queue.shift()!;
      hubs.forEach((h, i) => {
        if (i !== from) h.onRemote(e);
      });
    }
  };
  return { hubs, flush };
}

function peer(peerId: string, userId: string, joinedAt: number, room = 'tour:session') {
  const got: string[] = [];
  const closed: Array<{ code: number; reason: string }> = [];
  const p: LocalPeer = {
    peerId,
    userId,
    role: 'viewer',
    room,
    joinedAt,
    send: (t) => void got.push(t),
    close: (code, reason) => void closed.push({ code, reason }),
  };
  return { p, got, closed };
}

describe('RoomHub', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps the newer socket of a participant on another node, and exactly one when both join at the same moment', () => {
    const { hubs, flush } = cluster(2);
    const older = peer('p-1', 'viewer-a', 1000);
    const newer = peer('p-2', 'viewer-a', 2000);
    // Both joined before either node heard of the other: the joins cross on the bus.
    expect(hubs[0]!.join(older.p).ok).toBe(true);
    expect(hubs[1]!.join(newer.p).ok).toBe(true);
    flush();
    expect(older.closed).toEqual([{ code: LIVE_CLOSE_CODES.replaced, reason: 'Replaced by a newer connection' }]);
    expect(newer.closed).toEqual([]);

    // Same millisecond on two nodes: the peer id decides, the same way on both.
    const x = peer('p-x', 'viewer-b', 5000);
    const y = peer('p-y', 'viewer-b', 5000);
    hubs[0]!.join(x.p);
    hubs[1]!.join(y.p);
    flush();
    expect([x.closed.length, y.closed.length].sort()).toEqual([0, 1]);
    expect(x.closed.length).toBe(1); // 'p-y' > 'p-x'
  });

  it('takes a replaced socket out at once: what it still sends is dropped', () => {
    const { hubs } = cluster(1);
    const host = peer('h', 'host-1', 1);
    const first = peer('v1', 'viewer-a', 2);
    const second = peer('v2', 'viewer-a', 3);
    hubs[0]!.join(host.p);
    hubs[0]!.join(first.p);
    hubs[0]!.join(second.p);
    expect(first.closed.map((c) => c.code)).toEqual([LIVE_CLOSE_CODES.replaced]);
    hubs[0]!.relay(first.p, 'late');
    hubs[0]!.relayScroll(first.p, 'late scroll');
    hubs[0]!.relay(second.p, 'current');
    expect(host.got.filter((t) => !t.startsWith('{'))).toEqual(['current']);
  });

  it("relays scrolls within the room's bucket, then keeps each sender's latest until a token is free", () => {
    vi.useFakeTimers({ now: 0 });
    const { hubs } = cluster(1, { maxPeersPerRoom: 6, roomScrollBurst: 2, roomScrollPerSecond: 1 });
    const hub = hubs[0]!;
    const listener = peer('l', 'host-1', 1);
    const a = peer('a', 'viewer-a', 2);
    const b = peer('b', 'viewer-b', 3);
    for (const p of [listener, a, b]) hub.join(p.p);
    const scrolls = () => listener.got.filter((t) => t.startsWith('s:'));
    for (let i = 0; i < 10; i++) hub.relayScroll(a.p, `s:a${i}`);
    hub.relayScroll(b.p, 's:b0');
    expect(scrolls()).toEqual(['s:a0', 's:a1']);
    vi.advanceTimersByTime(1000);
    expect(scrolls()).toEqual(['s:a0', 's:a1', 's:a9']);
    vi.advanceTimersByTime(1000);
    expect(scrolls()).toEqual(['s:a0', 's:a1', 's:a9', 's:b0']);
    vi.advanceTimersByTime(10_000);
    expect(scrolls()).toHaveLength(4);
    expect(hub.stats).toMatchObject({ scrollsRelayed: 4, scrollsCoalesced: 7 });
  });
});
