/** The public seller report page when the tour is company only: said in the visitor's words. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import SharedReportPage from './shared-report-page.js';
import { renderRoute, stubFetch } from '../../test/helpers.js';

vi.mock('graphql-ws', () => ({ createClient: () => ({ subscribe: () => () => undefined }) }));
afterEach(() => vi.unstubAllGlobals());

describe('Seller report of a company-only tour', () => {
  it('tells a visitor without a session that the report is for members, with no figures', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        SharedSellerReport: () => ({
          body: {
            data: null,
            errors: [
              { message: 'Only members of the company can view this tour.', extensions: { code: 'TOUR_MEMBERS_ONLY' } },
            ],
          },
        }),
      }).impl,
    );
    renderRoute(<SharedReportPage />, { path: '/seller-report/:token', route: '/seller-report/rws_abc' });
    expect(await screen.findByTestId('seller-report-members-only')).toHaveTextContent(
      'This tour is private: its report is for members of the company. Sign in to see it.',
    );
    expect(screen.queryByRole('button', { name: /Retry/ })).toBeNull();
  });
});
