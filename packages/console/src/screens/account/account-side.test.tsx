/**
 * Members are offered only what they may do (item 7), the Offline License says how to change
 * it on the page (item 14), payment return pages say what happened and pending invites read like the rest (item 15).
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ACCOUNT_NOTES, FREE_TRIAL_PLAN_NAME, ROLES } from '@roomwalk/shared';
import AccountPage from './account-page.js';
import SubscriptionsPage from '../billing/subscriptions-page.js';
import TeamPage from '../team/team-page.js';
import { MEMBER_NOTE } from '../team/team-rules.js';
import ReportsPage from '../reports/reports-page.js';
import { ADMIN_ROLES, MEMBER_ROLES, renderPage, type Answers } from '../../test/api-harness.js';

const license = (planName: string, quantity = 15) => ({
  __typename: 'License',
  planName,
  subscriptionId: null,
  quantity,
  uploadLimit: 30,
  monthlyActiveTours: 1,
  monthlyUploadedTours: 1,
  startDate: '2026-11-01T00:00:00.000Z',
  endDate: null,
});
const account = (opts: { isAdmin: boolean; planName: string; quantity?: number }): Answers => ({
  Account: () => ({
    me: {
      __typename: 'Me',
      user: {
        __typename: 'User',
        id: 'u1',
        username: 'lebo@example.com',
        activated: true,
        isAdmin: opts.isAdmin,
        role: opts.isAdmin ? 'ADMIN' : 'STANDARD',
        monthlyActiveTours: 1,
        monthlyUploadedTours: 1,
        profile: {
          __typename: 'UserProfile',
          id: 'p1',
          name: 'Lebo',
          surname: 'Dube',
          email: 'lebo@example.com',
          contactNumber: '+27 821234567',
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
          license: license(opts.planName, opts.quantity),
        },
      },
    },
  }),
});

describe('account page', () => {
  it('shows an admin Manage and company Edit', async () => {
    renderPage(<AccountPage />, {
      path: '/account',
      roles: ADMIN_ROLES,
      answers: account({ isAdmin: true, planName: 'Basic' }),
    });
    await screen.findByTestId('plan-name');
    expect(within(screen.getByRole('region', { name: 'My Plan' })).getByText('Manage')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Company Details' })).getByText('Edit')).toBeInTheDocument();
  });

  it('offers Upgrade in the header below the highest plan, and not on Pro', async () => {
    const first = renderPage(<AccountPage />, {
      path: '/account',
      roles: ADMIN_ROLES,
      answers: account({ isAdmin: true, planName: 'Basic' }),
    });
    await screen.findByTestId('plan-name');
    expect(screen.getByText('Upgrade')).toBeInTheDocument();
    first.unmount();
    renderPage(<AccountPage />, {
      path: '/account',
      roles: ADMIN_ROLES,
      answers: account({ isAdmin: true, planName: 'Pro' }),
    });
    await screen.findByTestId('plan-name');
    expect(screen.getByText('My Team')).toBeInTheDocument();
    expect(screen.queryByText('Upgrade')).toBeNull();
  });

  it('offers a standard member neither Manage nor company Edit, and says why', async () => {
    renderPage(<AccountPage />, {
      path: '/account',
      roles: MEMBER_ROLES,
      answers: account({ isAdmin: false, planName: 'Basic' }),
    });
    await screen.findByTestId('plan-name');
    expect(within(screen.getByRole('region', { name: 'My Plan' })).queryByText('Manage')).toBeNull();
    expect(within(screen.getByRole('region', { name: 'Company Details' })).queryByText('Edit')).toBeNull();
    expect(screen.getByText(ACCOUNT_NOTES.memberCompany)).toBeInTheDocument();
    expect(screen.getByText(ACCOUNT_NOTES.memberPlan)).toBeInTheDocument();
    // Their own profile stays editable.
    expect(within(screen.getByRole('region', { name: 'Account Details' })).getByText('Edit')).toBeInTheDocument();
  });

  it('says on the page how to change an Offline License instead of offering Manage', async () => {
    renderPage(<AccountPage />, {
      path: '/account',
      roles: [ROLES.offlicenselicense, ROLES.admin],
      answers: account({ isAdmin: true, planName: 'Offline License', quantity: 500 }),
    });
    await screen.findByTestId('plan-name');
    expect(within(screen.getByRole('region', { name: 'My Plan' })).queryByText('Manage')).toBeNull();
    expect(screen.getByTestId('plan-note')).toHaveTextContent(ACCOUNT_NOTES.offlineLicense);
  });

  it('says the plan is active on /profile/success and that payment was cancelled on /profile/cancel', async () => {
    const first = renderPage(<AccountPage />, {
      path: '/profile/cancel',
      roles: ADMIN_ROLES,
      answers: account({ isAdmin: true, planName: FREE_TRIAL_PLAN_NAME }),
    });
    expect(await screen.findByTestId('payment-return')).toHaveTextContent(ACCOUNT_NOTES.paymentCancelled);
    first.unmount();
    renderPage(<AccountPage />, {
      path: '/profile/success',
      roles: ADMIN_ROLES,
      answers: account({ isAdmin: true, planName: 'Basic' }),
    });
    expect(await screen.findByTestId('payment-return', {}, { timeout: 5000 })).toHaveTextContent(
      ACCOUNT_NOTES.paymentSuccess,
    );
  });
});

const tiers = [
  { priceId: 'free', flatAmount: 0, upTo: 1, tierName: 'Free' },
  { priceId: 'entry', flatAmount: 29900, upTo: 5, tierName: 'Entry' },
  { priceId: 'basic', flatAmount: 59900, upTo: 15, tierName: 'Basic' },
  { priceId: 'pro', flatAmount: 99900, upTo: 40, tierName: 'Pro' },
].map((t) => ({
  __typename: 'PriceTier',
  unitAmount: 0,
  currencyCode: 'ZAR',
  currencySymbol: 'R',
  description: t.tierName,
  features: [],
  ...t,
}));

describe('plans page on the Offline License', () => {
  it('marks the Offline License as the current plan', async () => {
    renderPage(<SubscriptionsPage />, {
      path: '/account/subscriptions',
      roles: [ROLES.offlicenselicense, ROLES.admin],
      answers: {
        Subscriptions: () => ({
          priceTiers: tiers,
          me: {
            __typename: 'Me',
            user: {
              __typename: 'User',
              id: 'u1',
              company: {
                __typename: 'Company',
                id: 'c1',
                license: { __typename: 'License', planName: 'Offline License', quantity: 500 },
              },
            },
          },
        }),
      },
    });
    expect(await screen.findByTestId('current-plan-note')).toHaveTextContent(ACCOUNT_NOTES.offlineCurrent);
    // (Shoelace's properties are not set in jsdom; the real browser journey covers the disabled buttons.)
  });
});

const invite = (o: { id: string; email: string; accepted: boolean; user?: unknown }) => ({
  __typename: 'TeamInvite',
  createdAt: '2026-11-23T10:00:00.000Z',
  expiresAt: '2026-12-07T10:00:00.000Z',
  user: null,
  ...o,
});
const mateUser = {
  __typename: 'User',
  id: 'u2',
  username: 'mpho@example.com',
  isAdmin: false,
  monthlyActiveTours: 0,
  monthlyUploadedTours: 0,
  totalViews: 0,
  deletedTourViews: 0,
  profile: { __typename: 'UserProfile', id: 'p2', name: 'Mpho', surname: 'Mate', email: 'mpho@example.com' },
  topFiveTours: [],
};
const team = (isAdmin: boolean): Answers => ({
  Team: () => ({
    me: {
      __typename: 'Me',
      user: {
        __typename: 'User',
        id: 'u1',
        username: 'lebo@example.com',
        isAdmin,
        profile: null,
        company: {
          __typename: 'Company',
          id: 'c1',
          name: 'Walkers',
          license: { __typename: 'License', planName: 'Basic', quantity: 15 },
          invites: {
            __typename: 'TeamInviteConnection',
            edges: [
              {
                __typename: 'TeamInviteEdge',
                cursor: 'a',
                node: invite({ id: 'i1', email: 'new@example.com', accepted: false }),
              },
              {
                __typename: 'TeamInviteEdge',
                cursor: 'b',
                node: invite({ id: 'i2', email: 'mpho@example.com', accepted: true, user: mateUser }),
              },
            ],
            pageInfo: { __typename: 'PageInfo', hasNextPage: false, endCursor: 'b' },
          },
        },
      },
    },
  }),
  RevokeMemberInvite: () => ({ revokeMemberInvite: { __typename: 'Success', success: true } }),
});

describe('team page', () => {
  it('offers a standard member no Invite Member, Revoke or role change, and says why', async () => {
    renderPage(<TeamPage />, { path: '/team', roles: MEMBER_ROLES, answers: team(false) });
    await screen.findByText('Pending Invites');
    expect(screen.queryByText('Invite Member')).toBeNull();
    expect(screen.getByTestId('member-note')).toHaveTextContent(MEMBER_NOTE);
    fireEvent.click(screen.getAllByTestId('member-card')[0]!);
    expect(screen.queryByText('Revoke Invite')).toBeNull();
    fireEvent.click(screen.getAllByTestId('member-card')[1]!);
    expect(screen.queryByText('Promote to Admin')).toBeNull();
  });

  it('names members by their name, dates invites like the rest, and asks before revoking', async () => {
    const { calls } = renderPage(<TeamPage />, { path: '/team', roles: ADMIN_ROLES, answers: team(true) });
    await screen.findByText('Pending Invites');
    expect(screen.getAllByTestId('member-card')[1]).toHaveTextContent('Mpho Mate');
    fireEvent.click(screen.getAllByTestId('member-card')[0]!);
    expect(screen.getByText('23 Nov 2026')).toBeInTheDocument();
    expect(screen.getByText(/^0?7 Dec 2026$/)).toBeInTheDocument();
    fireEvent.click(screen.getByText('Revoke Invite'));
    // A confirmation first: nothing sent yet.
    expect(calls.some((c) => c.operationName === 'RevokeMemberInvite')).toBe(false);
    expect(screen.getByText(/^Revoke the invite to new@example.com\?/)).toBeInTheDocument();
    fireEvent.click(screen.getByText('Confirm'));
    await waitFor(() => expect(calls.some((c) => c.operationName === 'RevokeMemberInvite')).toBe(true));
  });
});

describe('reports page', () => {
  it('tells a standard member reports are for admins instead of a dialog that closes', async () => {
    renderPage(<ReportsPage />, {
      path: '/reports',
      roles: MEMBER_ROLES,
      answers: {
        Reports: () => ({
          me: {
            __typename: 'Me',
            user: { __typename: 'User', id: 'u2', isAdmin: false, company: { __typename: 'Company', id: 'c1' } },
          },
        }),
      },
    });
    expect(await screen.findByTestId('member-note')).toHaveTextContent(ACCOUNT_NOTES.memberReports);
    for (const b of screen.getAllByRole('button', { name: /Tours By Company|User Summary/ })) expect(b).toBeDisabled();
  });
});
