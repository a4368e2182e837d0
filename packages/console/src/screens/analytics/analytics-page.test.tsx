/**
 * The Tour Analytics page against a scripted API: the plan gate below Basic, the figures in words and tables
 * (the canvas library is stood in for: jsdom has no canvas; the journey draws the real pictures), the period picker,
 * and the digest's addresses checked before anything is sent.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ROLES } from '@roomwalk/shared';
import AnalyticsPage from './analytics-page.js';
import { renderPage, type Answers } from '../../test/api-harness.js';

const drawn = vi.hoisted(() => [] as unknown[][]);
vi.mock('uplot', () => {
  class FakePlot {
    static paths = { bars: () => () => null };
    static tzDate = (d: Date) => d;
    constructor(_opts: unknown, data: unknown[]) {
      drawn.push(data);
    }
    setSize() {}
    destroy() {}
  }
  return { default: FakePlot };
});

beforeEach(() => {
  drawn.length = 0;
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
});
afterEach(() => vi.unstubAllGlobals());

const TOUR = 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d10';
const access = (planName: string): Answers => ({
  AnalyticsAccess: () => ({
    me: {
      __typename: 'Me',
      user: {
        __typename: 'User',
        id: 'u1',
        company: { __typename: 'Company', id: 'c1', license: { __typename: 'License', planName } },
      },
    },
    tour: { __typename: 'Tour', id: TOUR, title: 'Garden Cottage' },
  }),
});
const figures = {
  __typename: 'TourRoomAnalytics',
  from: '2026-10-28',
  to: '2026-11-26',
  visits: 2,
  uniqueVisitors: 2,
  averageSeconds: 90,
  completionRate: 0.5,
  rooms: [
    { __typename: 'TourAnalyticsRoom', name: 'Master Bedroom', seconds: 40, visits: 1 },
    { __typename: 'TourAnalyticsRoom', name: 'Kitchen', seconds: 110, visits: 2 },
  ],
  exits: [{ __typename: 'TourAnalyticsCount', name: 'Kitchen', visits: 2 }],
  daily: [
    { __typename: 'TourAnalyticsDay', date: '2026-11-25', visits: 0, uniqueVisitors: 0 },
    { __typename: 'TourAnalyticsDay', date: '2026-11-26', visits: 2, uniqueVisitors: 2 },
  ],
  devices: [{ __typename: 'TourAnalyticsCount', name: 'phone', visits: 2 }],
};
const basicAnswers = (extra: Answers = {}): Answers => ({
  ...access('Basic'),
  TourAnalytics: () => ({ tourAnalytics: figures }),
  SellerReport: () => ({ sellerReport: { __typename: 'SellerReportSettings', links: [], digest: null } }),
  ...extra,
});
const open = (roles: string[], answers: Answers) =>
  renderPage(<AnalyticsPage />, { path: `/tour/${TOUR}/analytics`, route: '/tour/:tourId/analytics', roles, answers });

/** The AudienceLinks answer: one active link per label, ids audlink_1, audlink_2, … */
const audienceLinks = (labels: string[]) => ({
  audienceLinks: labels.map((label, i) => ({
    __typename: 'AudienceLink',
    id: `audlink_${i + 1}`,
    label,
    url: 'u',
    status: 'ACTIVE',
    expiresAt: null,
    hiddenMarkerIds: [],
    unbranded: false,
    visits: 1,
    createdAt: '2026-11-01T00:00:00Z',
  })),
  tour: { __typename: 'Tour', id: TOUR, markers: [] },
});

describe('Tour Analytics page', () => {
  it('shows the plan gate with Upgrade below Basic, and asks for no figures', async () => {
    const { calls } = open([ROLES.free], access('Free'));
    expect(await screen.findByTestId('analytics-gate')).toHaveTextContent(
      'Tour Analytics and seller reports need the Basic or Pro plan. Upgrade to use them.',
    );
    expect(screen.getByText('Upgrade')).toBeInTheDocument();
    expect(calls.some((c) => c.operationName === 'TourAnalytics')).toBe(false);
  });

  it('shows the figures in words and tables, rooms longest first, and asks again for another period', async () => {
    const { calls } = open([ROLES.basic], basicAnswers());
    const stats = await screen.findByTestId('analytics-stats');
    expect(within(stats).getByText('1 min 30 s')).toBeInTheDocument();
    expect(within(stats).getByText('50 %')).toBeInTheDocument();
    const rooms = screen.getByTestId('chart-rooms');
    expect(
      within(rooms).getByText('Buyers spent the most time in the Kitchen: 1 min 50 s over 2 visits.'),
    ).toBeInTheDocument();
    expect(
      within(rooms)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual(['Kitchen', 'Master Bedroom']);
    expect(within(screen.getByTestId('chart-devices')).getByText('Phone 100 %')).toBeInTheDocument();
    // The bars get the rooms in the same order: Kitchen's 110 s first.
    await waitFor(() => expect(drawn.some((d) => JSON.stringify(d[1]) === '[110,40]')).toBe(true));
    const before = calls.filter((c) => c.operationName === 'TourAnalytics').at(-1)!.variables;
    fireEvent.click(screen.getByLabelText('Last 7 days'));
    await waitFor(() =>
      expect(calls.filter((c) => c.operationName === 'TourAnalytics').at(-1)!.variables.from).not.toBe(before.from),
    );
    const after = calls.filter((c) => c.operationName === 'TourAnalytics').at(-1)!.variables;
    expect(Date.parse(String(after.to)) - Date.parse(String(after.from))).toBeLessThan(7 * 86_400_000);
  });

  it("shows one audience link's visits when chosen under Visits from, and all visits again", async () => {
    const { calls } = open(
      [ROLES.basic],
      basicAnswers({ AudienceLinks: () => audienceLinks(["Buyers' open day", 'MLS']) }),
    );
    const filter = await screen.findByLabelText('Visits from');
    expect(
      within(filter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All visits', "Buyers' open day", 'MLS']);
    const asked = () => calls.filter((c) => c.operationName === 'TourAnalytics').at(-1)!.variables.audienceLinkId;
    await waitFor(() => expect(asked()).toBeNull());
    fireEvent.change(filter, { target: { value: 'audlink_1' } });
    await waitFor(() => expect(asked()).toBe('audlink_1'));
    fireEvent.change(filter, { target: { value: '' } });
    await waitFor(() => expect(asked()).toBeNull());
  });

  it('makes the PDF of the visits the Visits from filter shows', async () => {
    const run = { __typename: 'SellerReportRun', id: 'run_1', progress: 0, progressText: 'Waiting in the queue' };
    const { calls } = open(
      [ROLES.basic],
      basicAnswers({
        AudienceLinks: () => audienceLinks(["Buyers' open day"]),
        // The run fails at its first reading: only the input the PDF was asked with matters here.
        SellerPdfCreate: () => ({ sellerReportPdfCreate: { ...run, status: 'QUEUED' } }),
        SellerRun: () => ({
          sellerReportRun: {
            ...run,
            status: 'FAILED',
            error: 'Stopped.',
            fileName: null,
            mimeType: null,
            fileContent: null,
          },
        }),
      }),
    );
    const pdfInput = () =>
      calls.filter((c) => c.operationName === 'SellerPdfCreate').at(-1)?.variables.input as
        | Record<string, unknown>
        | undefined;
    fireEvent.change(await screen.findByLabelText('Visits from'), { target: { value: 'audlink_1' } });
    expect(await screen.findByText(/of the visits through the link “Buyers' open day”/)).toBeInTheDocument();
    fireEvent.click(screen.getByText('Download PDF'));
    await waitFor(() => expect(pdfInput()?.audienceLinkId).toBe('audlink_1'));
    await screen.findByText('Stopped.');
    fireEvent.change(screen.getByLabelText('Visits from'), { target: { value: '' } });
    fireEvent.click(screen.getByText('Download PDF'));
    await waitFor(() => expect(calls.filter((c) => c.operationName === 'SellerPdfCreate')).toHaveLength(2));
    expect(pdfInput()).not.toHaveProperty('audienceLinkId');
  });

  it('checks the digest addresses before sending anything, then saves the parsed list', async () => {
    const { calls } = open(
      [ROLES.basic],
      basicAnswers({
        SellerDigestSave: (v) => {
          const input = v.input as { frequency: string; day: number; recipients: string[] };
          return {
            sellerReportDigestSave: {
              __typename: 'SellerReportDigest',
              ...input,
              nextSendAt: '2026-11-30T07:00:00.000Z',
              lastSentAt: null,
            },
          };
        },
      }),
    );
    const recipients = await screen.findByLabelText('Recipients');
    fireEvent.change(recipients, { target: { value: 'seller@example.com, nope' } });
    fireEvent.submit(recipients.closest('form')!);
    expect(await screen.findByText('"nope" is not an e-mail address.')).toBeInTheDocument();
    expect(recipients).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((c) => c.operationName === 'SellerDigestSave')).toBe(false);

    fireEvent.change(recipients, { target: { value: 'seller@example.com; co@example.com seller@example.com' } });
    fireEvent.change(screen.getByLabelText('Day of the week'), { target: { value: '5' } });
    fireEvent.submit(recipients.closest('form')!);
    await waitFor(() => expect(calls.some((c) => c.operationName === 'SellerDigestSave')).toBe(true));
    // The digest is sent at 07:00 in the agent's own time zone (the browser's).
    expect(calls.find((c) => c.operationName === 'SellerDigestSave')!.variables.input).toEqual({
      tourId: TOUR,
      frequency: 'WEEKLY',
      day: 5,
      recipients: ['seller@example.com', 'co@example.com'],
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
  });
});
