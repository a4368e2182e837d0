/**
 * Professional Photos (the rule: the photo view refreshes 1 s and 2 s after a generation call, then every 5 s while
 * any shot processes): after "Generate professional photos" the page refreshes 1 s and 2 s after the call and
 * then every 5 s while the generation runs (or any shot processes), shows progress meanwhile, shows the photos when
 * they arrive, and then stops polling. Before, it refreshed twice and kept 'No professional photos yet.' for good.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import ShotsPage from './shots-page.js';
import { renderRoute, stubFetch, validToken } from '../../test/helpers.js';
import { createSessionStore } from '../../session/session-store.js';

vi.mock('graphql-ws', () => ({ createClient: () => ({ subscribe: () => () => undefined }) }));

const ID = 'tour_0b6c9d9e-2a7e-4f61-9d55-6a3f3c1f1a10';
const shot = (id: string, roomType: string, status = 'COMPLETED', enhanced: string | null = null) => ({
  __typename: 'Shot',
  id,
  shotType: 'auto',
  shotStatus: status,
  roomType,
  frameScore: 0.9,
  sourceClipIndex: 1,
  sourceFramePosition: 3,
  originalImageURI: `/media/${id}.jpg`,
  enhancedImageURI: enhanced,
  stagedImageURI: null,
  createdAt: '2026-01-01T00:00:00Z',
  errorMessage: null,
});

async function flush() {
  for (let i = 0; i < 15; i++) await act(async () => new Promise<void>((r) => setImmediate(r)));
}
async function advance(ms: number) {
  await act(async () => vi.advanceTimersByTimeAsync(ms));
  await flush();
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function setup(opts: { stagingAvailable?: boolean; shots?: unknown[] } = {}) {
  const state = { generating: false, shots: opts.shots ?? ([] as unknown[]) };
  const tour = () => ({
    __typename: 'Tour',
    id: ID,
    title: 'Loft',
    status: { __typename: 'TourStatus', status: 'PROCESSED' },
    shotsGenerating: state.generating,
    stagingAvailable: opts.stagingAvailable ?? true,
    shots: state.shots,
  });
  const api = stubFetch({
    TourShots: () => ({
      body: { data: { tour: tour(), me: { __typename: 'Me', user: { __typename: 'User', id: 'u', profile: null } } } },
    }),
    GenerateTourShots: () => {
      state.generating = true;
      return { body: { data: { generateTourShots: tour() } } };
    },
  });
  vi.stubGlobal('fetch', api.impl);
  const store = createSessionStore({ log: () => undefined });
  store.login(validToken(['free']), 'roomwalk');
  renderRoute(<ShotsPage />, { path: '/tour/:tourId/shots', route: `/tour/${ID}/shots`, store });
  const queries = () =>
    api.calls.filter((c) => (c.body as { operationName?: string } | undefined)?.operationName === 'TourShots').length;
  return { state, queries };
}

describe('Professional Photos refresh', () => {
  it('polls from the generation call until the photos arrive, with progress, then stops', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { state, queries } = setup();
    await flush();
    expect(screen.getByText('No professional photos yet.')).toBeInTheDocument();
    const initial = queries();

    fireEvent.click(screen.getByText('Generate professional photos'));
    await flush();
    // Progress from the moment of the call.
    expect(screen.getByRole('progressbar', { name: 'Generating professional photos' })).toBeInTheDocument();
    expect(screen.queryByText('No professional photos yet.')).toBeNull();
    const afterCall = queries();
    await advance(1000);
    expect(queries()).toBeGreaterThan(afterCall); // the 1 s refresh
    const at1 = queries();
    await advance(1000);
    expect(queries()).toBeGreaterThan(at1); // the 2 s refresh
    // Then every 5 s while the generation runs: 30 s more bring about six refreshes, not none.
    const at2 = queries();
    for (let i = 0; i < 6; i++) await advance(5000);
    expect(queries() - at2).toBeGreaterThanOrEqual(5);
    expect(queries() - at2).toBeLessThanOrEqual(7);
    expect(screen.getByRole('progressbar', { name: 'Generating professional photos' })).toBeInTheDocument();

    // The job finishes: the next refresh shows the photos and the progress goes away.
    state.generating = false;
    state.shots = [shot('s1', 'Kitchen'), shot('s2', 'Bedroom')];
    await advance(5000);
    expect(screen.getByRole('heading', { name: 'Kitchen' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Bedroom' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Generating professional photos' })).toBeNull();
    // Nothing processes any more: no more polling.
    const done = queries();
    for (let i = 0; i < 12; i++) await advance(5000);
    expect(queries()).toBe(done);
    expect(initial).toBe(1);
  });

  it('does not offer Stage, and says why, when the server has no AI image service', async () => {
    setup({ stagingAvailable: false, shots: [shot('s1', 'Kitchen', 'COMPLETED', '/media/e.jpg')] });
    expect(await screen.findByRole('heading', { name: 'Kitchen' })).toBeInTheDocument();
    expect(screen.getByText('Re-enhance')).toBeInTheDocument();
    expect(screen.queryByText('Stage')).toBeNull();
    expect(screen.getByText(/Staging needs an AI image service/)).toBeInTheDocument();
  });
});
