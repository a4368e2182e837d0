/**
 * The player parses what the server sends on its socket with the shared schemas (@roomwalk/shared/schemas/
 * socket-messages): a message that does not parse is dropped, never taken for what its type says. Checked through a
 * stand-in WebSocket (for this test only) that the test speaks the server's side of.
 */
import { expect } from '@esm-bundle/chai';
import { GATE_SOCKET_MESSAGES, LIVE_SOCKET_MESSAGES } from '@roomwalk/shared/schemas/socket-messages';
import { waitForApproval } from '../lead-gate/lead-gate-form.js';
import { LiveSocket } from './live-socket.js';
import type { ServerMessage } from './protocol.js';

const sockets: StandInSocket[] = [];
class StandInSocket {
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    sockets.push(this);
  }
  send(text: string): void {
    this.sent.push(text);
  }
  close(): void {}
  /** The server's side: a message to the player. */
  receive(message: unknown): void {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }
}
const Impl = StandInSocket as unknown as typeof WebSocket;

const welcome = {
  type: LIVE_SOCKET_MESSAGES.welcome,
  peerId: 'p1',
  role: 'viewer',
  userId: 'u1',
  tourId: 'tour_x',
  session: 's1',
  expireTime: new Date(Date.now() + 60_000).toISOString(),
  iceServers: [{ urls: 'stun:stun.example.org' }],
  peers: [],
};

describe('socket messages the player receives', () => {
  it('the live socket drops what does not parse and opens on a welcome that does', () => {
    sockets.length = 0;
    const socket = new LiveSocket({ url: 'http://127.0.0.1:9', tourId: 'tour_x', token: 't', WebSocketImpl: Impl });
    const got: ServerMessage[] = [];
    socket.onMessage((m) => got.push(m));
    const release = socket.acquire();
    const ws = sockets[0]!;
    ws.receive('not json');
    ws.receive({ type: LIVE_SOCKET_MESSAGES.welcome }); // no peer id, no session: not a welcome
    ws.receive({ type: LIVE_SOCKET_MESSAGES.peerJoined, peer: { peerId: 'p2' } });
    expect(got).to.deep.equal([]);
    expect(socket.status.state).to.equal('connecting');
    ws.receive(welcome);
    expect(socket.status.state).to.equal('open');
    expect(socket.welcome?.peerId).to.equal('p1');
    const joined = { type: LIVE_SOCKET_MESSAGES.peerJoined, peer: { peerId: 'p2', role: 'host', userId: 'u2' } };
    ws.receive(joined);
    expect(got).to.deep.equal([welcome, joined]);
    release();
  });

  it('the gate waiter sends its credential first, drops a pass-less open, and takes the pass', () => {
    sockets.length = 0;
    const passes: string[] = [];
    const states: boolean[] = [];
    const real = globalThis.WebSocket;
    globalThis.WebSocket = Impl;
    let stop: () => void;
    try {
      stop = waitForApproval(
        'http://127.0.0.1:9',
        'tour_x',
        'lead_1',
        'cred',
        (p) => passes.push(p),
        (r) => states.push(r),
      );
    } finally {
      globalThis.WebSocket = real;
    }
    const ws = sockets[0]!;
    ws.onopen?.();
    expect(ws.sent.map((t) => JSON.parse(t))).to.deep.equal([{ type: GATE_SOCKET_MESSAGES.wait, token: 'cred' }]);
    ws.receive('{');
    ws.receive({ type: GATE_SOCKET_MESSAGES.open });
    ws.receive({ type: GATE_SOCKET_MESSAGES.open, access: 7 });
    expect(passes).to.deep.equal([]);
    ws.receive({ type: GATE_SOCKET_MESSAGES.waiting });
    expect(states).to.deep.equal([false]);
    ws.receive({ type: GATE_SOCKET_MESSAGES.open, access: 'pass_1' });
    expect(passes).to.deep.equal(['pass_1']);
    stop();
  });
});
