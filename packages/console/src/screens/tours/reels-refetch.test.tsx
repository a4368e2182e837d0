/**
 * Reels dialog (the rule: a reel's completion is followed by one reload after a 500 ms delay): a reel reaching 100 %
 * is reloaded once, 500 ms later — not in a loop (the dialog sent
 * 35–124 TourReels requests a second after a reel completed, until it was closed).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { ReelsDialog } from './reels-dialog.js';
import { renderRoute, stubFetch, validToken } from '../../test/helpers.js';
import { createSessionStore } from '../../session/session-store.js';

type Sink = { next: (v: unknown) => void; complete: () => void };
const sinks: Sink[] = [];
vi.mock('graphql-ws', () => ({
  createClient: () => ({
    subscribe: (_req: unknown, sink: Sink) => {
      sinks.push(sink);
      return () => undefined;
    },
  }),
}));

const ID = 'tour_0b6c9d9e-2a7e-4f61-9d55-6a3f3c1f1a10';

/** Lets fetches, the dynamic import and React's updates settle without moving the fake clock. */
async function flush() {
  for (let i = 0; i < 20; i++) await act(async () => new Promise<void>((r) => setImmediate(r)));
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  sinks.length = 0;
});

describe('Reels dialog after a reel completes', () => {
  it('reloads the reels once, 500 ms after 100 %', async () => {
    vi.useFakeTimers({
      shouldAdvanceTime: false,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
    });
    let done = false;
    const reel = () => ({
      __typename: 'Reel',
      id: 'r1',
      key: 'tours/x/reels/r1.mp4',
      progress: done ? 100 : 40,
      highURI: done ? '/media/r1.mp4' : null,
      thumbnailURL: null,
      status: { __typename: 'ReelStatus', status: done ? 'CREATED' : 'PROCESSING' },
    });
    const api = stubFetch({
      TourReels: () => ({ body: { data: { tour: { __typename: 'Tour', id: ID, title: 'Loft', reels: [reel()] } } } }),
    });
    vi.stubGlobal('fetch', api.impl);
    const reelQueries = () =>
      api.calls.filter((c) => (c.body as { operationName?: string } | undefined)?.operationName === 'TourReels').length;
    const store = createSessionStore({ log: () => undefined });
    store.login(validToken(['free']), 'roomwalk');
    renderRoute(<ReelsDialog open tourId={ID} onClose={() => undefined} />, { path: '/', route: '/', store });
    await flush();
    expect(screen.getByText('Generating...')).toBeInTheDocument();
    // The subscription is opened after a dynamic import of graphql-ws.
    await flush();
    expect(sinks).toHaveLength(1);
    expect(reelQueries()).toBe(1);

    done = true;
    await act(async () =>
      sinks[0]!.next({
        data: {
          reelProgressUpdated: {
            __typename: 'ReelProgress',
            progress: 100,
            status: 'CREATED',
            text: null,
            thumbnailURL: null,
          },
        },
      }),
    );
    await act(async () => vi.advanceTimersByTimeAsync(499));
    expect(reelQueries()).toBe(1);
    await act(async () => vi.advanceTimersByTimeAsync(1));
    await flush();
    expect(screen.getByText('Play')).toBeInTheDocument();
    expect(reelQueries()).toBe(2);
    // Ten seconds on, still exactly one reload.
    for (let i = 0; i < 20; i++) await act(async () => vi.advanceTimersByTimeAsync(500));
    expect(reelQueries()).toBe(2);
  });
});
