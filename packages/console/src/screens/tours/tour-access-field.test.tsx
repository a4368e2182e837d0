/** Who sees the tour in Tour Info: the choice is sent with tourAccessSet, a bad password never is. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { stubFetch } from '../../test/helpers.js';
import { TOUR_ID as ID, openEditInfo as openWith, renderEditInfo, renderSharing } from './tour-dialog-test-support.js';

vi.mock('graphql-ws', () => ({ createClient: () => ({ subscribe: () => () => undefined }) }));

afterEach(() => vi.unstubAllGlobals());

/** Edit Info of a tour whose access is `access`; returns the TourSave and TourAccessSet variables sent. */
const openEditInfo = (access: string) =>
  openWith({ blurFaces: true, blurredClips: [], liveViewing: false, access }, { blurFaces: true, liveViewing: false });

describe('Tour Info: who can see this tour', () => {
  it('a public tour is left alone when saved untouched', async () => {
    const calls = openEditInfo('PUBLIC');
    expect(await screen.findByLabelText(/Anyone with the link/)).toBeChecked();
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(calls.saved).toHaveLength(1));
    expect(calls.access).toEqual([]);
  });

  it('asks for a password before saving a password tour, refuses a short one, then sends it', async () => {
    const calls = openEditInfo('PUBLIC');
    fireEvent.click(await screen.findByLabelText(/Only people with the password/));
    fireEvent.click(screen.getByText('Save'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose a password for this tour.');
    const field = screen.getByLabelText('Tour password');
    fireEvent.change(field, { target: { value: 'abc' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('The password needs at least 4 characters.');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(calls.saved).toEqual([]);
    fireEvent.change(field, { target: { value: 'harbour view' } });
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(calls.access).toHaveLength(1));
    expect(calls.access[0]).toEqual({ input: { id: ID, access: 'PASSWORD', password: 'harbour view' } });
  });

  it('a password tour keeps its password when the field stays empty, and can become company only', async () => {
    const calls = openEditInfo('PASSWORD');
    expect(await screen.findByLabelText(/Only people with the password/)).toBeChecked();
    expect(screen.getByLabelText('Tour password')).toHaveAttribute(
      'placeholder',
      'Leave empty to keep the current password',
    );
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(calls.saved).toHaveLength(1));
    expect(calls.access).toEqual([]);
    fireEvent.click(screen.getByLabelText(/Only members of your company/));
    expect(screen.queryByLabelText('Tour password')).toBeNull();
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(calls.access).toHaveLength(1));
    expect(calls.access[0]).toEqual({ input: { id: ID, access: 'COMPANY', password: null } });
  });
});

describe('Sharing Options of a protected tour', () => {
  it('says the links ask for the password', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        TourShareSettings: () => ({
          body: { data: { tour: { __typename: 'Tour', id: ID, liveViewing: false, access: 'PASSWORD' } } },
        }),
      }).impl,
    );
    renderSharing();
    expect(await screen.findByTestId('access-hint')).toHaveTextContent('Send the password separately from the link.');
  });
});

describe('Tour Info: a save the server refuses in part', () => {
  it('a refused lead form leaves the password and the details unsaved, and says which field was refused', async () => {
    const sent: string[] = [];
    const refusal = 'Choose a room after the first one: something must play before the form.';
    vi.stubGlobal(
      'fetch',
      stubFetch({
        TourPrivacy: () => ({
          body: {
            data: {
              tour: {
                __typename: 'Tour',
                id: ID,
                blurFaces: true,
                blurredClips: [],
                liveViewing: false,
                access: 'PUBLIC',
              },
            },
          },
        }),
        TourLeadGate: () => ({
          body: {
            data: {
              tour: {
                __typename: 'Tour',
                id: ID,
                leadGateSettings: { mode: 'OFF', markerId: null, seconds: null, approval: false },
                markers: [
                  { id: 'marker_hall', name: 'Hall', frameIndex: 0 },
                  { id: 'marker_kitchen', name: 'Kitchen', frameIndex: 40 },
                ],
              },
            },
          },
        }),
        TourLeadGateSet: () => {
          sent.push('TourLeadGateSet');
          return { body: { data: null, errors: [{ message: refusal, extensions: { code: 'BAD_USER_INPUT' } }] } };
        },
        TourSave: () => {
          sent.push('TourSave');
          return { body: { data: { tourSave: { __typename: 'Tour', id: ID, title: 'Loft' } } } };
        },
        TourAccessSet: () => {
          sent.push('TourAccessSet');
          return { body: { data: { tourAccessSet: { __typename: 'Tour', id: ID, access: 'PASSWORD' } } } };
        },
      }).impl,
    );
    renderEditInfo();
    fireEvent.click(await screen.findByLabelText(/Only people with the password/));
    fireEvent.change(screen.getByLabelText('Tour password'), { target: { value: 'harbour view' } });
    fireEvent.click(await screen.findByLabelText('Ask for details before a room'));
    fireEvent.change(screen.getByLabelText('Room', { exact: true }), { target: { value: 'marker_hall' } });
    fireEvent.click(screen.getByText('Save'));
    expect(await screen.findByText(`Lead form not saved, nothing changed: ${refusal}`)).toBeInTheDocument();
    // Nothing else went to the server: the password is not set behind the agent's back.
    expect(sent).toEqual(['TourLeadGateSet']);
  });
});
