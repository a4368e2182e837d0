/**
 * A visitor through an audience link joins the live socket with `link=` (the server moves the agent's frames into the
 * link's when it hides rooms); without a link, none is sent. The call's socket is checked through a stand-in WebSocket
 * (in place of the browser's, for this test only) that records the URL it was opened with.
 */
import { expect } from '@esm-bundle/chai';
import { CallStateMachine } from './call-state-machine.js';

const opened: string[] = [];
class RecordingSocket {
  readyState = 0;
  constructor(url: string) {
    opened.push(url);
  }
  addEventListener(): void {}
  removeEventListener(): void {}
  close(): void {}
  send(): void {}
}

function socketUrlOf(link?: string): string {
  opened.length = 0;
  const call = new CallStateMachine({
    role: 'viewer',
    request: { signalingToken: 'tok', expireTime: new Date(Date.now() + 60_000).toISOString() } as never,
    url: 'http://127.0.0.1:9',
    tourId: 'tour_x',
    ...(link ? { link } : {}),
  });
  const real = globalThis.WebSocket;
  globalThis.WebSocket = RecordingSocket as unknown as typeof WebSocket;
  try {
    call.liveSocket.acquire()();
  } finally {
    globalThis.WebSocket = real;
  }
  return opened[0] ?? '';
}

describe('live socket through an audience link', () => {
  it('sends the link the visitor watches through, and none without one', () => {
    const url = new URL(socketUrlOf('AbCdEfGhIjKlMnOpQrStUvWxYz012345'));
    expect(url.pathname).to.equal('/ws/tour-viewer-events');
    expect(url.searchParams.get('link')).to.equal('AbCdEfGhIjKlMnOpQrStUvWxYz012345');
    expect(url.searchParams.get('tourId')).to.equal('tour_x');
    expect(new URL(socketUrlOf()).searchParams.has('link')).to.equal(false);
  });
});
