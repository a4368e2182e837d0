/**
 * A visitor joins the live socket with its credentials as the first message, never in the URL (proxies log URLs): the
 * signalling token, and through an audience link the link (the server moves the agent's frames into the link's when it
 * hides rooms); without a link, none is sent. The call's socket is checked through a stand-in WebSocket (in place of the
 * browser's, for this test only) that records the URL it was opened with and what it was sent once open.
 */
import { expect } from '@esm-bundle/chai';
import { CallStateMachine } from './call-state-machine.js';

class RecordingSocket {
  static last: RecordingSocket | null = null;
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  constructor(readonly url: string) {
    RecordingSocket.last = this;
  }
  addEventListener(): void {}
  removeEventListener(): void {}
  close(): void {}
  send(data: string): void {
    this.sent.push(data);
  }
}

function joinThrough(link?: string): { url: URL; sent: string[] } {
  RecordingSocket.last = null;
  const call = new CallStateMachine({
    role: 'viewer',
    request: { signalingToken: 'tok', expireTime: new Date(Date.now() + 60_000).toISOString() } as never,
    url: 'http://127.0.0.1:9',
    tourId: 'tour_x',
    ...(link ? { link } : {}),
  });
  const real = globalThis.WebSocket;
  globalThis.WebSocket = RecordingSocket as unknown as typeof WebSocket;
  let release: () => void;
  try {
    release = call.liveSocket.acquire();
  } finally {
    globalThis.WebSocket = real;
  }
  const socket = RecordingSocket.last as RecordingSocket | null;
  if (!socket) throw new Error('no socket opened');
  socket.readyState = 1;
  socket.onopen?.();
  release();
  return { url: new URL(socket.url), sent: socket.sent };
}

describe('live socket credentials', () => {
  it('sends the token and the link the visitor watches through as its first message, none in the URL', () => {
    const { url, sent } = joinThrough('AbCdEfGhIjKlMnOpQrStUvWxYz012345');
    expect(url.pathname).to.equal('/ws/tour-viewer-events');
    expect(url.searchParams.get('tourId')).to.equal('tour_x');
    for (const key of ['token', 'link', 'access']) expect(url.searchParams.has(key), key).to.equal(false);
    expect(url.toString()).not.to.contain('AbCdEfGhIjKlMnOpQrStUvWxYz012345');
    expect(sent.length).to.equal(1);
    const hello = JSON.parse(sent[0]!) as { type: string; token: string; link?: string };
    expect(hello.type).to.equal('roomwalk_live_hello');
    expect(hello.token).to.equal('tok');
    expect(hello.link).to.equal('AbCdEfGhIjKlMnOpQrStUvWxYz012345');
  });

  it('sends no link without one', () => {
    const { sent } = joinThrough();
    const hello = JSON.parse(sent[0]!) as { link?: string };
    expect(hello).not.to.have.property('link');
  });
});
