import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { endOfLocalDay } from '@roomwalk/shared';
import { AudienceLinksSection } from './audience-links-section.js';
import { audienceLinkProblems } from './audience-link-form.js';
import { readPlayerFlags, playerAttributes } from '../player/player-flags.js';
import { loggedInStore, renderRoute, stubFetch } from '../../test/helpers.js';

vi.mock('graphql-ws', () => ({ createClient: () => ({ subscribe: () => () => undefined }) }));

const TOUR = 'tour_0b6c9d9e-2a7e-4f61-9d55-6a3f3c1f1a10';
const KITCHEN = 'marker_1b6c9d9e-2a7e-4f61-9d55-6a3f3c1f1a11';
const GARDEN = 'marker_2b6c9d9e-2a7e-4f61-9d55-6a3f3c1f1a12';
const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const links = [
  {
    id: 'audlink_a',
    label: "Buyers' open day",
    url: `https://app.example/playerext?tourId=${TOUR}&link=${TOKEN}`,
    status: 'ACTIVE',
    expiresAt: '2030-05-02T21:59:59.999Z',
    hiddenMarkerIds: [KITCHEN],
    unbranded: false,
    visits: 3,
    createdAt: '2030-05-01T08:00:00Z',
  },
  {
    id: 'audlink_b',
    label: 'MLS',
    url: 'https://app.example/x',
    status: 'REVOKED',
    expiresAt: null,
    hiddenMarkerIds: [],
    unbranded: true,
    visits: 1,
    createdAt: '2030-04-01T08:00:00Z',
  },
];
const tour = {
  id: TOUR,
  markers: [
    { id: KITCHEN, name: 'Kitchen', frameIndex: 40 },
    { id: GARDEN, name: 'Garden', frameIndex: 100 },
  ],
};

afterEach(() => vi.unstubAllGlobals());

function render(handlers: Parameters<typeof stubFetch>[0] = {}) {
  const stub = stubFetch({ AudienceLinks: () => ({ body: { data: { audienceLinks: links, tour } } }), ...handlers });
  vi.stubGlobal('fetch', stub.impl);
  renderRoute(<AudienceLinksSection tourId={TOUR} passwordTour={false} />, {
    path: '/',
    route: '/',
    store: loggedInStore(),
  });
  return stub;
}
const sent = (stub: ReturnType<typeof stubFetch>, op: string) =>
  stub.calls.filter((c) => (c.body as { operationName?: string } | null)?.operationName === op);

describe('Sharing Options: audience links', () => {
  it('lists each link with its status, end, hidden rooms and visits; an ended link offers no copy or revoke', async () => {
    render();
    const open = (await screen.findByText("Buyers' open day")).closest('li')!;
    expect(open).toHaveTextContent('Active');
    expect(open).toHaveTextContent('Hides Kitchen');
    expect(open).toHaveTextContent('3 visits');
    expect(open).toHaveTextContent('Until');
    expect(within(open).getByText('Copy link')).toBeInTheDocument();
    const mls = screen.getByText('MLS').closest('li')!;
    expect(mls).toHaveTextContent('Revoked');
    expect(mls).toHaveTextContent('Shows every room · Unbranded · 1 visit');
    expect(within(mls).queryByText('Copy link')).toBeNull();
    expect(within(mls).queryByText('Revoke')).toBeNull();
  });

  it("checks the form in the agent's words before sending, then sends the name, the day's end and the rooms", async () => {
    const stub = render({
      AudienceLinkCreate: () => ({
        body: { data: { audienceLinkCreate: { id: 'audlink_c', label: 'Seller', url: 'u', status: 'ACTIVE' } } },
      }),
    });
    fireEvent.click(await screen.findByText('New audience link'));
    const form = screen.getByRole('form');
    fireEvent.submit(form);
    expect(await screen.findByText('Give the link a name, such as "Buyers\' open day".')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '  Seller  ' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Kitchen' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Garden' }));
    fireEvent.submit(form);
    expect(await screen.findByText('Leave at least one room visible.')).toBeInTheDocument();
    expect(sent(stub, 'AudienceLinkCreate')).toHaveLength(0);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Garden' }));
    fireEvent.change(screen.getByLabelText('Stops working after (optional)'), { target: { value: '2099-03-04' } });
    fireEvent.submit(form);
    await waitFor(() => expect(sent(stub, 'AudienceLinkCreate')).toHaveLength(1));
    expect((sent(stub, 'AudienceLinkCreate')[0]!.body as { variables: unknown }).variables).toEqual({
      input: {
        tourId: TOUR,
        label: 'Seller',
        expiresAt: endOfLocalDay('2099-03-04'),
        hiddenMarkerIds: [KITCHEN],
        unbranded: false,
      },
    });
    expect(await screen.findByText('Audience link created')).toBeInTheDocument();
  });

  it('revokes only after asking, then reads the list again', async () => {
    const stub = render({
      AudienceLinkRevoke: () => ({
        body: {
          data: { audienceLinkRevoke: { id: 'audlink_a', status: 'REVOKED', revokedAt: '2030-05-01T09:00:00Z' } },
        },
      }),
    });
    fireEvent.click(within((await screen.findByText("Buyers' open day")).closest('li')!).getByText('Revoke'));
    expect(sent(stub, 'AudienceLinkRevoke')).toHaveLength(0);
    expect(screen.getByText(/Visitors of this link will see that the tour is no longer available/)).toBeInTheDocument();
    // Keyboard focus goes to the question's first answer.
    await waitFor(() => expect(document.activeElement).toHaveTextContent('Revoke link'));
    fireEvent.click(screen.getByText('Revoke link'));
    await waitFor(() => expect(sent(stub, 'AudienceLinkRevoke')).toHaveLength(1));
    expect((sent(stub, 'AudienceLinkRevoke')[0]!.body as { variables: unknown }).variables).toEqual({
      id: 'audlink_a',
    });
    await waitFor(() => expect(sent(stub, 'AudienceLinks').length).toBeGreaterThan(1));
  });
});

describe('audience link rules', () => {
  it('a past day and an empty name are refused; every room hidden is refused', () => {
    expect(audienceLinkProblems({ label: 'Open day', expires: '2000-01-01', hidden: [] }, 2)).toEqual({
      expiresAt: 'The expiry date must be today or later.',
    });
    expect(audienceLinkProblems({ label: ' ', expires: '', hidden: ['a', 'b'] }, 2)).toEqual({
      label: 'Give the link a name, such as "Buyers\' open day".',
      hiddenMarkerIds: 'Leave at least one room visible.',
    });
    expect(audienceLinkProblems({ label: 'MLS', expires: '', hidden: ['a'] }, 2)).toEqual({});
  });

  it('the share page takes link= (32 base64url characters only) onto the player', () => {
    expect(playerAttributes(readPlayerFlags(`?tourId=${TOUR}&link=${TOKEN}`))).toEqual({ 'audience-link': TOKEN });
    expect(readPlayerFlags(`?tourId=${TOUR}&link=short`).audienceLink).toBe('');
    expect(readPlayerFlags(`?tourId=${TOUR}&link=${TOKEN}"><x`).audienceLink).toBe('');
  });
});
