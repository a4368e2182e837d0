import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ERROR_TEXTS, TOURS_PAGE_SIZE, formatTexts } from '@roomwalk/shared';
import HomePage from './home-page.js';
import { renderRoute, stubFetch, validToken } from '../../test/helpers.js';
import { createSessionStore } from '../../session/session-store.js';

type Sink = { next: (v: unknown) => void; complete: () => void };
const subs = vi.hoisted(() => [] as Array<{ variables: Record<string, unknown>; sink: Sink }>);
vi.mock('graphql-ws', () => ({
  createClient: () => ({
    subscribe: (payload: { variables: Record<string, unknown> }, sink: Sink) => {
      subs.push({ variables: payload.variables, sink });
      return () => undefined;
    },
  }),
}));

const license = (over: Record<string, number> = {}) => ({
  planName: 'Free',
  subscriptionId: null,
  monthlyActiveTours: 0,
  monthlyUploadedTours: 0,
  uploadLimit: 2,
  quantity: 1,
  startDate: '2026-01-01T00:00:00Z',
  endDate: null,
  ...over,
});
const tour = (id: string, status: string, over: Record<string, unknown> = {}) => ({
  __typename: 'Tour',
  id,
  title: `Tour ${id}`,
  description: `About ${id}`,
  listingLink: null,
  thumbnailURL: null,
  views: 0,
  progress: 0,
  createdAt: '2026-01-01T00:00:00Z',
  status: { __typename: 'TourStatus', status },
  ...over,
});
const page = (tours: unknown[], hasNextPage: boolean, endCursor = 'c1') => ({
  __typename: 'TourConnection',
  edges: tours.map((node, i) => ({ __typename: 'TourEdge', cursor: `c${i}`, node })),
  pageInfo: { __typename: 'PageInfo', hasNextPage, endCursor },
});
const home = (
  tours: unknown[],
  opts: { hasNextPage?: boolean; lic?: ReturnType<typeof license> | null; isAdmin?: boolean } = {},
) => ({
  data: {
    me: {
      __typename: 'Me',
      user: {
        __typename: 'User',
        id: 'user_1',
        username: 'a@b.co',
        activated: true,
        isAdmin: opts.isAdmin ?? false,
        profile: { __typename: 'UserProfile', id: 'p1', name: 'Ann', surname: 'Agent', email: 'a@b.co' },
        company: {
          __typename: 'Company',
          id: 'company_1',
          name: 'Acme',
          license: opts.lic === undefined ? { __typename: 'License', ...license() } : opts.lic,
        },
      },
    },
    tours: page(tours, opts.hasNextPage ?? false),
  },
});

function renderHome(route = '/') {
  const store = createSessionStore({ log: () => undefined });
  store.login(validToken(['free', 'admin']), 'roomwalk');
  return renderRoute(<HomePage />, { path: '/', route, store });
}

beforeEach(() => {
  subs.length = 0;
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('home (My Tours)', () => {
  it('splits processing, failed and processed tours, shows views and the failed card with its whole reason', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        ToursHome: () => ({
          body: home([
            tour('tour_p', 'PROCESSING', { progress: 12 }),
            tour('tour_f', 'FAILED', { failureReason: 'Video cannot be less than 10 seconds' }),
            tour('tour_1', 'PROCESSED', { views: 1 }),
            tour('tour_2', 'PROCESSED', { views: 7, title: '' }),
          ]),
        }),
      }).impl,
    );
    renderHome();
    const processing = await screen.findByRole('region', { name: 'Processing Tours' });
    expect(within(processing).getByText('12%')).toBeInTheDocument();
    expect(within(processing).queryByText('Processing failed')).not.toBeInTheDocument();
    const failed = screen.getByRole('region', { name: 'Failed Tours' });
    expect(within(failed).getByText('Processing failed')).toBeInTheDocument();
    // The server's reason, not only 'Processing failed'.
    expect(within(failed).getByTestId('tour-failure-reason')).toHaveTextContent('Video cannot be less than 10 seconds');
    const product = screen.getByRole('region', { name: formatTexts.productTours() });
    expect(within(product).getByText('1 view')).toBeInTheDocument();
    expect(within(product).getByText('7 views')).toBeInTheDocument();
    expect(within(product).getByText('Insert Title')).toBeInTheDocument();
    expect(within(product).queryByText('Tour tour_p')).not.toBeInTheDocument();
    expect(screen.queryByText('Load more tours...')).not.toBeInTheDocument();
  });

  it('shows the live percentage from tourProgressUpdated and refreshes when the tour is processed', async () => {
    let processed = false;
    const api = stubFetch({
      ToursHome: () => ({
        body: home(
          [tour('tour_p', 'PROCESSING', { progress: 5 })].map((t) =>
            processed ? { ...t, status: { __typename: 'TourStatus', status: 'PROCESSED' } } : t,
          ),
        ),
      }),
    });
    vi.stubGlobal('fetch', api.impl);
    renderHome();
    expect(await screen.findByText('5%')).toBeInTheDocument();
    await waitFor(() => expect(subs.some((s) => s.variables.tourId === 'tour_p')).toBe(true));
    const sub = subs.find((s) => s.variables.tourId === 'tour_p')!;
    act(() =>
      sub.sink.next({
        data: {
          tourProgressUpdated: {
            __typename: 'TourProgress',
            progress: 42,
            status: 'PROCESSING',
            text: null,
            thumbnailURL: null,
          },
        },
      }),
    );
    expect(await screen.findByText('42%')).toBeInTheDocument();
    processed = true;
    act(() =>
      sub.sink.next({
        data: {
          tourProgressUpdated: {
            __typename: 'TourProgress',
            progress: 100,
            status: 'PROCESSED',
            text: null,
            thumbnailURL: null,
          },
        },
      }),
    );
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Processing Tours' })).not.toBeInTheDocument());
    expect(screen.getByText('Tour tour_p')).toBeInTheDocument();
  });

  it('refreshes every 10 s while a tour is unprocessed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = stubFetch({ ToursHome: () => ({ body: home([tour('tour_p', 'PROCESSING')]) }) });
    vi.stubGlobal('fetch', api.impl);
    renderHome();
    await screen.findByText('0%');
    const before = api.calls.filter((c) => (c.body as { operationName?: string }).operationName === 'ToursHome').length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    const after = api.calls.filter((c) => (c.body as { operationName?: string }).operationName === 'ToursHome').length;
    expect(after).toBeGreaterThan(before);
  });

  it("'Load more tours...' asks for the next 10 after the last cursor", async () => {
    const api = stubFetch({
      ToursHome: () => ({ body: home([tour('tour_1', 'PROCESSED')], { hasNextPage: true }) }),
      ToursPage: () => ({ body: { data: { tours: page([tour('tour_11', 'PROCESSED')], false, 'c11') } } }),
    });
    vi.stubGlobal('fetch', api.impl);
    renderHome();
    fireEvent.click(await screen.findByText('Load more tours...'));
    expect(await screen.findByText('Tour tour_11')).toBeInTheDocument();
    const call = api.calls.find((c) => (c.body as { operationName?: string }).operationName === 'ToursPage')!;
    expect((call.body as { variables: unknown }).variables).toEqual({ first: TOURS_PAGE_SIZE, after: 'c1' });
    expect(screen.queryByText('Load more tours...')).not.toBeInTheDocument();
  });

  it("the Add button opens 'No monthly uploads left' with Upgrade plan when no upload is left", async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({ ToursHome: () => ({ body: home([], { lic: license({ monthlyUploadedTours: 2 }) }) }) }).impl,
    );
    renderHome();
    await screen.findByText(formatTexts.productTours());
    fireEvent.click(screen.getByText('Add'));
    // jsdom does not run Shoelace's property updates, so dialogs are found by their (rendered-when-open) content.
    const gate = (await screen.findAllByText(ERROR_TEXTS.upgradeHint))
      .map((p) => p.closest('sl-dialog'))
      .find(Boolean) as HTMLElement;
    expect(within(gate).getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute('href', '/account/subscriptions');
  });

  it('the Add button goes to /upload when a slot is left', async () => {
    vi.stubGlobal('fetch', stubFetch({ ToursHome: () => ({ body: home([]) }) }).impl);
    renderHome();
    await screen.findByText(formatTexts.productTours());
    fireEvent.click(screen.getByText('Add'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/upload'));
  });

  it('shows the AI Edit button only for enableAIEdit=true without ai-edit disabled or live viewing', async () => {
    vi.stubGlobal('fetch', stubFetch({ ToursHome: () => ({ body: home([]) }) }).impl);
    const cases: Array<[string, boolean]> = [
      ['/', false],
      ['/?enableAIEdit=true', true],
      ['/?enableAIEdit=true&disabledControls=Menu,AI-EDIT', false],
      ['/?enableAIEdit=true&liveViewing=true', false],
    ];
    for (const [route, shown] of cases) {
      const { unmount } = renderHome(route);
      await screen.findByText(formatTexts.productTours());
      expect(!!screen.queryByText('AI Edit'), route).toBe(shown);
      unmount();
    }
  });

  it('lists team members’ top tours under a truncated name linking to /team, with Preview and Share only', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        ToursHome: () => ({ body: home([], { isAdmin: true }) }),
        TeamTours: () => ({
          body: {
            data: {
              me: {
                __typename: 'Me',
                user: {
                  __typename: 'User',
                  id: 'user_1',
                  company: {
                    __typename: 'Company',
                    id: 'company_1',
                    invites: {
                      __typename: 'TeamInviteConnection',
                      edges: [
                        {
                          __typename: 'TeamInviteEdge',
                          node: {
                            __typename: 'TeamInvite',
                            id: 'i1',
                            accepted: true,
                            email: 'm@b.co',
                            user: {
                              __typename: 'User',
                              id: 'user_2',
                              username: 'm@b.co',
                              profile: {
                                __typename: 'UserProfile',
                                id: 'p2',
                                name: 'Bartholomew',
                                surname: 'Longname',
                              },
                              topFiveTours: [tour('tour_t', 'PROCESSED', { views: 3 })],
                            },
                          },
                        },
                      ],
                    },
                  },
                },
              },
            },
          },
        }),
      }).impl,
    );
    renderHome();
    const team = await screen.findByRole('region', { name: 'Team Tours' });
    expect(within(team).getByRole('link', { name: 'Bartholomew Lon...' })).toHaveAttribute('href', '/team');
    fireEvent.click(within(team).getByText('Tour tour_t'));
    const list = await screen.findByRole('list', { name: 'Actions for Tour tour_t' });
    const labels = [...list.querySelectorAll('sl-button')].map((b) => b.textContent?.trim());
    expect(labels).toEqual(['Preview', 'Share']);
  });

  it('a tour made from a cut-off recording says what was kept, on its card and in Tour Info', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        ToursHome: () => ({
          body: home([
            tour('tour_cut', 'PROCESSED', {
              videoInfo: { __typename: 'VideoInfo', keptSeconds: 16.13, declaredSeconds: 60 },
            }),
            tour('tour_whole', 'PROCESSED', {
              videoInfo: { __typename: 'VideoInfo', keptSeconds: null, declaredSeconds: null },
            }),
          ]),
        }),
      }).impl,
    );
    renderHome();
    const words = 'Only the first 16 s of 1 min could be read; the rest of the file was missing.';
    const cut = (await screen.findByText('Tour tour_cut')).closest('article')!;
    expect(within(cut as HTMLElement).getByTestId('tour-cut-off')).toHaveTextContent(words);
    const whole = screen.getByText('Tour tour_whole').closest('article')!;
    expect(within(whole as HTMLElement).queryByTestId('tour-cut-off')).toBeNull();
    fireEvent.click(screen.getByText('Tour tour_cut'));
    const actions = await screen.findByRole('list', { name: 'Actions for Tour tour_cut' });
    fireEvent.click(within(actions).getByText('Edit Info'));
    expect(await screen.findByTestId('tour-info-cut-off')).toHaveTextContent(words);
  });

  it('the card dialog offers every action and its Delete asks for confirmation', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        ToursHome: () => ({ body: home([tour('tour_1', 'PROCESSED')]) }),
        TourDelete: () => ({ body: { data: { tourDelete: { __typename: 'Success', success: true } } } }),
      }).impl,
    );
    renderHome();
    fireEvent.click(await screen.findByText('Tour tour_1'));
    const dialog = await screen.findByRole('list', { name: 'Actions for Tour tour_1' });
    const labels = [...dialog.querySelectorAll('sl-button')].map((b) => b.textContent?.trim());
    expect(labels).toEqual([
      'Preview',
      'Edit Fast Travel',
      'Edit Info',
      'Generate QR Code',
      'Instant Reels',
      'Professional Photos',
      'Tour Analytics',
      'Share',
      'Delete tour',
    ]);
    fireEvent.click(within(dialog).getByText('Delete tour'));
    expect(await screen.findByText('Are you sure you want to delete this tour?')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Delete'));
    expect(await screen.findByText('Deleted tour')).toBeInTheDocument();
  });
});
