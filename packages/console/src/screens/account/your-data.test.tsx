/**
 * The Account page's Your data card against a scripted API: the export's progress is read again until the download
 * link arrives; the delete dialog shows a refusal with the way out, or takes the password and says the date.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { FREE_TRIAL_PLAN_NAME } from '@roomwalk/shared';
import AccountPage from './account-page.js';
import { ADMIN_ROLES, renderPage, type Answers } from '../../test/api-harness.js';

const ACCOUNT: Answers = {
  Account: () => ({
    me: {
      __typename: 'Me',
      user: {
        __typename: 'User',
        id: 'u1',
        username: 'lebo@example.com',
        activated: true,
        isAdmin: true,
        role: 'ADMIN',
        monthlyActiveTours: 0,
        monthlyUploadedTours: 0,
        profile: {
          __typename: 'UserProfile',
          id: 'p1',
          name: 'Lebo',
          surname: 'Dube',
          email: 'lebo@example.com',
          contactNumber: null,
          profileImageURL: null,
        },
        company: {
          __typename: 'Company',
          id: 'c1',
          name: 'Walkers',
          address: null,
          vatno: null,
          countrycode: 'en_ZA',
          logoimageurl: null,
          license: {
            __typename: 'License',
            planName: FREE_TRIAL_PLAN_NAME,
            subscriptionId: null,
            quantity: 1,
            uploadLimit: 2,
            monthlyActiveTours: 0,
            monthlyUploadedTours: 0,
            startDate: '2026-11-01T00:00:00.000Z',
            endDate: null,
          },
        },
      },
    },
  }),
};

const run = (over: Record<string, unknown>) => ({
  __typename: 'DataExport',
  status: 'RUNNING',
  progress: 30,
  progressText: 'Reading your tours',
  error: null,
  downloadURL: null,
  expiresAt: null,
  requestedAt: '2026-11-27T10:00:00Z',
  ...over,
});
const preview = (over: Record<string, unknown>) => ({
  accountDeletionPreview: {
    __typename: 'AccountDeletionPreview',
    allowed: true,
    refusal: null,
    consequences: 'Your account and your profile will be deleted for good on 27 December 2026 (in 30 days).',
    companyToo: false,
    tours: 0,
    graceDays: 30,
    deleteAfter: '2026-12-27T10:00:00Z',
    needsPassword: true,
    ...over,
  },
});

describe('your data', () => {
  it('shows the export’s progress while it runs, then the download link', async () => {
    let reads = 0;
    renderPage(<AccountPage />, {
      path: '/account',
      roles: ADMIN_ROLES,
      answers: {
        ...ACCOUNT,
        DataExport: () => ({
          dataExport:
            ++reads < 3
              ? run({})
              : run({
                  status: 'DONE',
                  progress: 100,
                  progressText: 'Ready',
                  downloadURL: 'http://x/data-export/1?e=1&s=2',
                  expiresAt: '2026-11-29T10:00:00Z',
                }),
        }),
      },
    });
    const card = await screen.findByRole('region', { name: 'Your data' });
    expect(await within(card).findByText('Reading your tours')).toBeTruthy();
    const link = await within(card).findByRole('link', { name: 'Download ZIP' }, { timeout: 5000 });
    expect(link.getAttribute('href')).toBe('http://x/data-export/1?e=1&s=2');
    expect(within(card).getByTestId('export-state').textContent).toMatch(/the link works until 29 November 2026/);
  });

  it('keeps a trace of a deletion that signing in cancelled', async () => {
    renderPage(<AccountPage />, {
      path: '/account',
      roles: ADMIN_ROLES,
      answers: {
        ...ACCOUNT,
        DataExport: () => ({
          dataExport: null,
          me: { __typename: 'Me', deletionCancelledAt: '2026-12-03T09:30:00Z' },
        }),
      },
    });
    const card = await screen.findByRole('region', { name: 'Your data' });
    expect((await within(card).findByTestId('deletion-cancelled')).textContent).toBe(
      'Deletion cancelled on 3 December 2026 when you signed in.',
    );
  });

  it('tells the last admin why they cannot leave yet, with the way to the Team page', async () => {
    const { calls } = renderPage(<AccountPage />, {
      path: '/account',
      roles: ADMIN_ROLES,
      answers: {
        ...ACCOUNT,
        DataExport: () => ({ dataExport: null }),
        AccountDeletionPreview: () =>
          preview({
            allowed: false,
            refusal:
              'You are the only admin of Walkers, and others still work in it. Make one of them an admin on the Team page first, then delete your account.',
          }),
      },
    });
    fireEvent.click(await screen.findByTestId('delete-account'));
    const refused = await screen.findByTestId('deletion-refused');
    expect(refused.textContent).toMatch(/Make one of them an admin on the Team page first/);
    expect(within(refused).getByRole('link', { name: 'Go to the Team page' }).getAttribute('href')).toBe('/team');
    expect(screen.queryByTestId('delete-account-confirm')).toBeNull();
    expect(calls.some((c) => c.operationName === 'AccountDeletionRequest')).toBe(false);
  });

  it('takes the password, says the date and offers to sign out', async () => {
    const { calls } = renderPage(<AccountPage />, {
      path: '/account',
      roles: ADMIN_ROLES,
      answers: {
        ...ACCOUNT,
        DataExport: () => ({ dataExport: null }),
        AccountDeletionPreview: () => preview({}),
        AccountDeletionRequest: () => ({
          accountDeletionRequest: {
            __typename: 'AccountDeletionOutcome',
            status: 'SCHEDULED',
            deleteAfter: '2026-12-27T10:00:00Z',
          },
        }),
      },
    });
    fireEvent.click(await screen.findByTestId('delete-account'));
    expect((await screen.findByTestId('deletion-consequences')).textContent).toMatch(/in 30 days/);
    const password = screen.getByLabelText('Your password');
    await waitFor(() => expect(document.activeElement).toBe(password));
    fireEvent.change(password, { target: { value: 'Secret123' } });
    fireEvent.click(screen.getByTestId('delete-account-confirm'));
    const scheduled = await screen.findByTestId('deletion-scheduled');
    expect(scheduled.textContent).toMatch(/^Your account will be deleted on 27 December 2026\./);
    expect(calls.find((c) => c.operationName === 'AccountDeletionRequest')?.variables).toEqual({
      password: 'Secret123',
    });
    await waitFor(() => expect(document.activeElement).toBe(scheduled));
  });
});
