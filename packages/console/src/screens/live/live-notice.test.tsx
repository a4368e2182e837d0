import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { Provider, type Client } from 'urql';
import { fromValue, never } from 'wonka';
import LiveNotice, { joinLink, liveNoticeText } from './live-notice.js';
import { LocationProbe } from '../../test/helpers.js';

const TOUR = 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d10';
const SESSION = '6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';

function client(leadType: string, gate: string | null = null, approved: string[] = []): Client {
  return {
    executeSubscription: () =>
      fromValue({
        data: {
          tourLeadCreated: {
            __typename: 'TourLead',
            id: 'lead-1',
            name: 'Vera',
            surname: 'Visitor',
            leadType,
            tourId: TOUR,
            viewingSessionId: leadType === 'LIVE_VIEWING' ? SESSION : null,
            gate,
            stoppedAt: gate ? 'Lounge' : null,
            roomPath: [
              { name: 'Kitchen', seconds: 90 },
              { name: 'Master Bedroom', seconds: 40 },
            ],
          },
        },
        stale: false,
        hasNext: true,
      }),
    executeQuery: () =>
      fromValue({
        data: { tour: { __typename: 'Tour', id: TOUR, title: 'Seaside Villa' } },
        stale: false,
        hasNext: false,
      }),
    executeMutation: (op: { variables: { id: string } }) => {
      if (!gate) return never;
      approved.push(op.variables.id);
      return fromValue({
        data: { tourLeadApprove: { __typename: 'TourLead', id: op.variables.id, gate: 'APPROVED' } },
      });
    },
    query: () => ({
      toPromise: () =>
        Promise.resolve({
          data: { tour: { id: TOUR, title: 'Seaside Villa', leadGate: gate ? { roomName: 'Kitchen' } : null } },
        }),
    }),
  } as unknown as Client;
}

function renderNotice(leadType: string, gate: string | null = null, approved: string[] = []) {
  return render(
    <Provider value={client(leadType, gate, approved)}>
      <MemoryRouter initialEntries={['/']}>
        <LocationProbe />
        <Routes>
          <Route path="*" element={<LiveNotice />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

describe('live notice', () => {
  it('builds the text and the host link', () => {
    expect(liveNoticeText({ who: 'Vera Visitor', title: 'Seaside Villa' })).toBe(
      'Vera Visitor wants a live viewing of Seaside Villa',
    );
    // As the lead mail's link: the tour as host, in the visitor's session.
    expect(joinLink(TOUR, SESSION)).toBe(`/agentplayer?tourId=${TOUR}&liveViewing=true&session=${SESSION}`);
    expect(joinLink(TOUR, null)).toBe(`/agentplayer?tourId=${TOUR}&liveViewing=true`);
  });

  it('shows "X wants a live viewing of <tour>" and Join opens the agent player as host in the visitor\'s session', async () => {
    renderNotice('LIVE_VIEWING');
    const text = await screen.findByText('Vera Visitor wants a live viewing of Seaside Villa');
    expect(text.closest('[role="alertdialog"]')).not.toBeNull();
    // The rooms the visitor saw, in the order walked.
    expect(screen.getByTestId('live-notice-rooms').textContent).toBe('Saw: Kitchen 1 min 30 s, Master Bedroom 40 s');
    const join = screen.getByRole('button', { name: 'Join' });
    // Focus moves to Join in an effect after the notice is painted.
    await waitFor(() => expect(document.activeElement).toBe(join));
    await act(async () => {
      fireEvent.click(join);
    });
    expect(screen.getByTestId('location').textContent).toBe(
      `/agentplayer?tourId=${TOUR}&liveViewing=true&session=${SESSION}`,
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('a visitor waiting at the lead gate reads as an approval: who waits, for which room and tour, Approve approves in place', async () => {
    const approved: string[] = [];
    renderNotice('CONTACT', 'WAITING', approved);
    const text = await screen.findByText('Vera Visitor is waiting for your approval to see the rest of Seaside Villa');
    const notice = text.closest('[role="alertdialog"]') as HTMLElement;
    expect(notice).toHaveTextContent('Waiting for your approval');
    expect(notice).toHaveTextContent('Waiting to see the Kitchen');
    expect(notice).toHaveAccessibleDescription('Waiting to see the Kitchen');
    expect(screen.queryByRole('button', { name: 'Join' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Dismiss' })).toBeInTheDocument();
    const approve = screen.getByRole('button', { name: 'Approve' });
    await waitFor(() => expect(document.activeElement).toBe(approve));
    await act(async () => {
      fireEvent.click(approve);
    });
    expect(approved).toEqual(['lead-1']);
    // Approved in place: the agent stays where they are, the notice goes.
    expect(screen.getByTestId('location').textContent).toBe('/');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('ignores contact leads', async () => {
    renderNotice('CONTACT');
    await act(async () => undefined);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
