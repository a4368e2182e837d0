/** Professional Photos screen: not processed yet, tour not found, shots grouped by room. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { ERROR_TEXTS } from '@roomwalk/shared';
import ShotsPage from './shots-page.js';
import { loggedInStore, notAvailable, renderRoute, stubFetch } from '../../test/helpers.js';

vi.mock('graphql-ws', () => ({ createClient: () => ({ subscribe: () => () => undefined }) }));

const ID = 'tour_0b6c9d9e-2a7e-4f61-9d55-6a3f3c1f1a10';
const loggedIn = () => loggedInStore();

afterEach(() => vi.unstubAllGlobals());

describe('Professional Photos screen', () => {
  const renderShots = () =>
    renderRoute(<ShotsPage />, { path: '/tour/:tourId/shots', route: `/tour/${ID}/shots`, store: loggedIn() });

  it('asks for a processed tour first', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        TourShots: () => ({
          body: {
            data: {
              tour: {
                __typename: 'Tour',
                id: ID,
                title: 'Loft',
                status: { __typename: 'TourStatus', status: 'PROCESSING' },
                shots: [],
              },
              me: { __typename: 'Me', user: { __typename: 'User', id: 'u', profile: null } },
            },
          },
        }),
      }).impl,
    );
    renderShots();
    expect(await screen.findByText(ERROR_TEXTS.shotsNotReady)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Loft' })).toBeInTheDocument();
  });

  it("says 'Tour not found' with the id", async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        TourShots: () => ({
          body: { data: null, errors: [{ message: 'Not found.', extensions: { code: 'NOT_FOUND' } }] },
        }),
      }).impl,
    );
    renderShots();
    expect(await screen.findByText(ID)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: ERROR_TEXTS.tourNotFound })).toBeInTheDocument();
  });

  it('groups shots by room with status, score and position, and shows the not-available answer', async () => {
    const shot = (id: string, roomType: string, status: string, enhanced: string | null) => ({
      __typename: 'Shot',
      id,
      shotType: 'auto',
      shotStatus: status,
      roomType,
      frameScore: 0.91,
      sourceClipIndex: 2,
      sourceFramePosition: 14,
      originalImageURI: `/media/${id}.jpg`,
      enhancedImageURI: enhanced,
      stagedImageURI: null,
      createdAt: '2026-01-01T00:00:00Z',
      errorMessage: null,
    });
    vi.stubGlobal(
      'fetch',
      stubFetch({
        TourShots: () => ({
          body: {
            data: {
              tour: {
                __typename: 'Tour',
                id: ID,
                title: 'Loft',
                status: { __typename: 'TourStatus', status: 'PROCESSED' },
                shotsGenerating: false,
                stagingAvailable: true,
                shots: [shot('s1', 'Kitchen', 'COMPLETED', null), shot('s2', 'Bedroom', 'COMPLETED', '/media/e.jpg')],
              },
              me: { __typename: 'Me', user: { __typename: 'User', id: 'u', profile: null } },
            },
          },
        }),
        GenerateTourShots: notAvailable,
      }).impl,
    );
    renderShots();
    expect(await screen.findByRole('heading', { name: 'Kitchen' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Bedroom' })).toBeInTheDocument();
    expect(screen.getAllByText('Score 0.91')).toHaveLength(2);
    expect(screen.getAllByText('Clip 2 · Position 14')).toHaveLength(2);
    expect(screen.getByText('Enhance')).toBeInTheDocument();
    expect(screen.getByText('Re-enhance')).toBeInTheDocument();
    expect(screen.getByText('Stage')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Generate professional photos'));
    expect(await screen.findAllByText(ERROR_TEXTS.notAvailableYet)).not.toHaveLength(0);
  });
});
