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
    leadGate: { mode: 'ROOM', markerId: GARDEN, seconds: null, approval: true },
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
    expect(mls).toHaveTextContent(
      'Shows every room · Unbranded · Lead form before Garden, waits for your approval · 1 visit',
    );
    // A link keeping the tour's lead form says nothing of it.
    expect(open).not.toHaveTextContent('Lead form');
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
        leadGate: null,
      },
    });
    expect(await screen.findByText('Audience link created')).toBeInTheDocument();
  });

  it("offers the link's own lead form: rooms it shows only, checked first, sent with the approval choice", async () => {
    const stub = render({
      AudienceLinkCreate: () => ({
        body: { data: { audienceLinkCreate: { id: 'audlink_c', label: 'Open day', url: 'u', status: 'ACTIVE' } } },
      }),
    });
    fireEvent.click(await screen.findByText('New audience link'));
    const form = screen.getByRole('form');
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Open day' } });
    const lead = within(screen.getByRole('group', { name: 'Lead form' }));
    // The tour's own lead form is the default; a room gate asks for its room.
    expect(lead.getByRole('radio', { name: "The tour's own lead form (as set in Tour Info)" })).toBeChecked();
    fireEvent.click(lead.getByRole('radio', { name: 'Ask for details before a room' }));
    fireEvent.submit(form);
    expect(await screen.findByText('Choose the room the form comes before.')).toBeInTheDocument();
    expect(sent(stub, 'AudienceLinkCreate')).toHaveLength(0);
    // A room the link hides is not offered.
    fireEvent.click(screen.getByRole('checkbox', { name: 'Kitchen' }));
    const room = lead.getByLabelText('Room') as HTMLSelectElement;
    expect([...room.options].map((o) => o.text)).toEqual(['Choose a room', 'Garden']);
    fireEvent.change(room, { target: { value: GARDEN } });
    fireEvent.click(lead.getByRole('checkbox', { name: /Wait for my approval/ }));
    fireEvent.submit(form);
    await waitFor(() => expect(sent(stub, 'AudienceLinkCreate')).toHaveLength(1));
    expect((sent(stub, 'AudienceLinkCreate')[0]!.body as { variables: { input: unknown } }).variables.input).toEqual({
      tourId: TOUR,
      label: 'Open day',
      expiresAt: null,
      hiddenMarkerIds: [KITCHEN],
      unbranded: false,
      leadGate: { mode: 'ROOM', markerId: GARDEN, seconds: null, approval: true },
    });
  });

  it("shows the server's refusal of the lead form beside it", async () => {
    const refusal = 'The form cannot come before the first room this link shows. Choose a later room.';
    render({
      AudienceLinkCreate: () => ({
        body: {
          data: null,
          errors: [
            { message: refusal, extensions: { code: 'BAD_USER_INPUT', fields: { 'leadGate.markerId': refusal } } },
          ],
        },
      }),
    });
    fireEvent.click(await screen.findByText('New audience link'));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Open day' } });
    const lead = within(screen.getByRole('group', { name: 'Lead form' }));
    fireEvent.click(lead.getByRole('radio', { name: 'Ask for details after some seconds' }));
    fireEvent.change(lead.getByLabelText('Seconds of watching'), { target: { value: '30' } });
    fireEvent.submit(screen.getByRole('form'));
    expect(await lead.findByText(refusal)).toBeInTheDocument();
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

  it("a link's lead form before a room it hides, or without its seconds, is refused; the tour's needs nothing", () => {
    const gate = { mode: 'ROOM' as const, markerId: 'a', seconds: '', approval: false };
    expect(audienceLinkProblems({ label: 'MLS', expires: '', hidden: ['a'], gate }, 2)).toEqual({
      leadGate: 'This link does not show that room, so the form cannot come before it. Choose a room the link shows.',
    });
    expect(
      audienceLinkProblems({ label: 'MLS', expires: '', hidden: [], gate: { ...gate, mode: 'SECONDS' } }, 2),
    ).toEqual({ leadGate: 'Choose between 5 and 3600 seconds.' });
    expect(
      audienceLinkProblems({ label: 'MLS', expires: '', hidden: ['a'], gate: { ...gate, mode: 'TOUR' } }, 2),
    ).toEqual({});
  });

  it('the share page takes link= (32 base64url characters only) onto the player', () => {
    expect(playerAttributes(readPlayerFlags(`?tourId=${TOUR}&link=${TOKEN}`))).toEqual({ 'audience-link': TOKEN });
    expect(readPlayerFlags(`?tourId=${TOUR}&link=short`).audienceLink).toBe('');
    expect(readPlayerFlags(`?tourId=${TOUR}&link=${TOKEN}"><x`).audienceLink).toBe('');
  });
});
