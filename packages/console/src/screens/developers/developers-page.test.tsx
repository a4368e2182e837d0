/**
 * The APIs & Webhooks page against a scripted API: the plan gate below Pro, the lists, a key's secret shown
 * once with Copy, an endpoint's events required, the delivery log's status in words.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { NOTICES, ROLES } from '@roomwalk/shared';
import DevelopersPage from './developers-page.js';
import { DEVELOPER_TEXTS } from './developer-rules.js';
import { renderPage, type Answers } from '../../test/api-harness.js';

afterEach(() => vi.unstubAllGlobals());

const PRO_ADMIN = [ROLES.pro, ROLES.admin];
const access = (planName: string, isAdmin = true): Answers => ({
  DevelopersAccess: () => ({
    me: {
      __typename: 'Me',
      user: {
        __typename: 'User',
        id: 'u1',
        isAdmin,
        company: { __typename: 'Company', id: 'c1', license: { __typename: 'License', planName } },
      },
    },
  }),
});
const key = {
  __typename: 'ApiKey',
  id: 'apikey_1',
  name: 'Listing site',
  prefix: 'rw_live_AbCd',
  createdAt: '2026-11-20T09:00:00.000Z',
  lastUsedAt: null,
};
const endpoint = {
  __typename: 'WebhookEndpoint',
  id: 'whep_1',
  url: 'https://crm.example.com/hooks',
  description: 'CRM',
  events: ['TOUR_PROCESSED', 'LEAD_CREATED'],
  enabled: false,
  disabledReason: 'Every delivery failed for 72 hours.',
  createdAt: '2026-11-20T09:00:00.000Z',
};
const delivery = (id: string, status: string, extra: object = {}) => ({
  __typename: 'WebhookDelivery',
  id,
  eventId: 'evt_1',
  eventType: 'tour.processed',
  attempt: 1,
  status,
  statusCode: status === 'SUCCEEDED' ? 200 : 500,
  durationMs: 12,
  error: status === 'FAILED' ? 'Answered 500.' : null,
  responseExcerpt: 'thanks',
  nextRetryAt: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  ...extra,
});
const proAnswers = (extra: Answers = {}): Answers => ({
  ...access('Pro'),
  Developers: () => ({
    me: {
      __typename: 'Me',
      user: {
        __typename: 'User',
        id: 'u1',
        isAdmin: true,
        company: {
          __typename: 'Company',
          id: 'c1',
          license: { __typename: 'License', planName: 'Pro' },
          apiKeys: [key],
        },
      },
    },
    webhookEndpoints: [endpoint],
  }),
  // The first page, then (after cursor 'c') one older test delivery.
  WebhookDeliveries: (v) => {
    const nodes = v.after
      ? [delivery('whdel_0', 'SUCCEEDED', { eventType: 'webhook.test' })]
      : [delivery('whdel_2', 'SUCCEEDED'), delivery('whdel_1', 'FAILED')];
    return {
      webhookDeliveries: {
        __typename: 'WebhookDeliveryConnection',
        edges: nodes.map((node) => ({ __typename: 'WebhookDeliveryEdge', node })),
        pageInfo: { __typename: 'PageInfo', hasNextPage: !v.after, endCursor: v.after ? 'd' : 'c' },
      },
    };
  },
  ...extra,
});

describe('APIs & Webhooks page', () => {
  it('shows the plan gate with Upgrade below Pro', async () => {
    const { calls } = renderPage(<DevelopersPage />, {
      path: '/account/developers',
      roles: [ROLES.basic, ROLES.admin],
      answers: access('Basic'),
    });
    expect(await screen.findByTestId('developers-gate')).toHaveTextContent(DEVELOPER_TEXTS.planRequired);
    expect(screen.getByText('Upgrade')).toBeInTheDocument();
    expect(calls.map((c) => c.operationName)).not.toContain('Developers');
  });

  it('tells a member of a Pro company that admins manage it, without Upgrade', async () => {
    renderPage(<DevelopersPage />, { path: '/account/developers', roles: [ROLES.pro], answers: access('Pro', false) });
    expect(await screen.findByTestId('developers-gate')).toHaveTextContent(DEVELOPER_TEXTS.adminOnly);
    expect(screen.queryByText('Upgrade')).toBeNull();
  });

  it('lists keys and endpoints, and the delivery log says each status in words', async () => {
    const { calls } = renderPage(<DevelopersPage />, {
      path: '/account/developers',
      roles: PRO_ADMIN,
      answers: proAnswers(),
    });
    const keyRow = await screen.findByTestId('api-key');
    expect(keyRow).toHaveTextContent('Listing site');
    expect(keyRow).toHaveTextContent('rw_live_AbCd…');
    expect(keyRow).toHaveTextContent(DEVELOPER_TEXTS.neverUsed);
    const card = screen.getByTestId('webhook-endpoint');
    expect(within(card).getByRole('list', { name: 'Events' })).toHaveTextContent('Tour processedLead created');
    expect(within(card).getByTestId('endpoint-state')).toHaveTextContent('Disabled');
    expect(within(card).getByTestId('disabled-reason')).toHaveTextContent('Every delivery failed for 72 hours.');
    const rows = await within(card).findAllByTestId('delivery-row');
    expect(rows.map((r) => within(r).getByTestId('delivery-status').textContent)).toEqual(['Succeeded', 'Failed']);
    expect(rows[1]).toHaveTextContent('Answered 500.');
    // Load more asks for the page after the last cursor and adds it below.
    fireEvent.click(within(card).getByText('Load more'));
    await waitFor(() => expect(within(card).getAllByTestId('delivery-row')).toHaveLength(3));
    expect(within(card).getAllByTestId('delivery-row')[2]).toHaveTextContent('Test event');
    expect(calls.filter((c) => c.operationName === 'WebhookDeliveries').at(-1)?.variables).toEqual({
      endpointId: 'whep_1',
      first: 10,
      after: 'c',
    });
    expect(within(card).queryByText('Load more')).toBeNull();
  });

  it('shows a new key once, with Copy, and never asks for an endpoint secret unless revealed', async () => {
    const writes: string[] = [];
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: async (t: string) => void writes.push(t) } });
    const { calls } = renderPage(<DevelopersPage />, {
      path: '/account/developers',
      roles: PRO_ADMIN,
      answers: proAnswers({
        ApiKeyCreate: (v) => ({
          apiKeyCreate: {
            __typename: 'ApiKeyCreatePayload',
            apiKey: { ...key, id: 'apikey_2', name: (v.input as { name: string }).name },
            secret: 'rw_live_secretvalue',
          },
        }),
      }),
    });
    fireEvent.click(await screen.findByText('Create API key'));
    fireEvent.click(screen.getByText('Create'));
    expect(
      await screen.findByText('Give the key a name, for example the system that will use it.'),
    ).toBeInTheDocument();
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'CRM sync' } });
    fireEvent.click(screen.getByText('Create'));
    const secret = await screen.findByLabelText('API key');
    expect(secret).toHaveValue('rw_live_secretvalue');
    expect(screen.getByText(DEVELOPER_TEXTS.keyShownOnce)).toBeInTheDocument();
    expect(calls.find((c) => c.operationName === 'ApiKeyCreate')?.variables).toEqual({ input: { name: 'CRM sync' } });
    fireEvent.click(screen.getByText('Copy'));
    expect(await screen.findByText(NOTICES.copied)).toBeInTheDocument();
    expect(writes).toEqual(['rw_live_secretvalue']);
    expect(calls.map((c) => c.operationName)).not.toContain('WebhookEndpointSecret');
  });

  it('needs at least one event for a new endpoint', async () => {
    const { calls } = renderPage(<DevelopersPage />, {
      path: '/account/developers',
      roles: PRO_ADMIN,
      answers: proAnswers(),
    });
    fireEvent.click(await screen.findByText('Add endpoint', { selector: 'sl-button' }));
    fireEvent.input(screen.getByLabelText('Endpoint URL'), { target: { value: 'https://crm.example.com/new' } });
    const dialog = screen.getByRole('form', { name: 'Add endpoint' }).closest('sl-dialog')!;
    fireEvent.click(within(dialog as HTMLElement).getByText('Add endpoint', { selector: 'sl-button' }));
    expect(await screen.findByText('Choose at least one event to send to this endpoint.')).toBeInTheDocument();
    expect(screen.getByLabelText('Tour processed')).not.toBeChecked();
    await waitFor(() => expect(calls.map((c) => c.operationName)).not.toContain('WebhookEndpointCreate'));
  });
});
