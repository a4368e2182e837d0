import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ERROR_TEXTS, NOTICES, VALIDATION } from '@roomwalk/shared';
import { ReelsDialog } from './reels-dialog.js';
import { notAvailable, stubFetch } from '../../test/helpers.js';
import {
  TOUR_ID as ID,
  openEditInfo,
  renderEditInfo,
  renderLoggedIn,
  renderSharing,
} from './tour-dialog-test-support.js';

vi.mock('graphql-ws', () => ({ createClient: () => ({ subscribe: () => () => undefined }) }));

afterEach(() => vi.unstubAllGlobals());

describe('Tour Info dialog (edit)', () => {
  it("enforces the limits with 'Maximum characters reached'", async () => {
    vi.stubGlobal('fetch', stubFetch({}).impl);
    renderEditInfo();
    fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'x'.repeat(51) } });
    fireEvent.input(screen.getByLabelText('Description'), { target: { value: 'y'.repeat(301) } });
    fireEvent.click(screen.getByText('Save'));
    expect(await screen.findAllByText(VALIDATION.maxChars)).toHaveLength(2);
  });

  it("says 'No file selected' without a file, and 'Unable to update thumbnail' with 'Update Failed' for other types", async () => {
    vi.stubGlobal('fetch', stubFetch({}).impl);
    renderEditInfo();
    expect(screen.getByText('Update Thumbnail')).toBeInTheDocument();
    const input = screen.getByTestId('thumbnail-input');
    expect(input).toHaveAttribute('accept', '.jpg,.jpeg,.png');
    fireEvent.change(input, { target: { files: [] } });
    expect(await screen.findByText(VALIDATION.noFileSelected)).toBeInTheDocument();
    fireEvent.change(input, { target: { files: [new File(['x'], 'plan.gif', { type: 'image/gif' })] } });
    expect(await screen.findByText(NOTICES.unableToUpdateThumbnail)).toBeInTheDocument();
    expect(screen.getByText('Update Failed')).toBeInTheDocument();
  });

  it("shows 'Failed to update tour details' when saving fails", async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        TourSave: () => ({
          body: { data: null, errors: [{ message: 'Nope', extensions: { code: 'BAD_USER_INPUT' } }] },
        }),
      }).impl,
    );
    renderEditInfo();
    fireEvent.click(screen.getByText('Save'));
    expect(await screen.findByText(NOTICES.failedToUpdateTour)).toBeInTheDocument();
  });
});

describe('Tour Info dialog: privacy', () => {
  it('shows which clips had faces blurred, and turning blurring off sends blurFaces: false (the tour is reprocessed)', async () => {
    const { saved } = openEditInfo({ blurFaces: true, blurredClips: [0, 3] }, { blurFaces: false }, 'PROCESSING');
    expect(await screen.findByText('Faces were blurred in clips 1, 4 of the tour.')).toBeInTheDocument();
    const box = screen.getByLabelText('Blur faces');
    expect(box).toBeChecked();
    expect(box).toHaveAccessibleDescription(/Changing this reprocesses the tour/);
    fireEvent.click(box);
    expect(box).not.toBeChecked();
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ input: { id: ID, title: 'Loft', blurFaces: false } });
  });

  it("switches live viewing on for the tour's shared links (liveViewing: true in the save)", async () => {
    const { saved } = openEditInfo(
      { blurFaces: true, blurredClips: [], liveViewing: false },
      { blurFaces: true, liveViewing: true },
    );
    const box = await screen.findByLabelText('Offer live viewing on shared links');
    expect(box).not.toBeChecked();
    expect(box).toHaveAccessibleDescription(/Unbranded links never offer it/);
    fireEvent.click(box);
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ input: { id: ID, title: 'Loft', liveViewing: true } });
    expect((saved[0] as { input: object }).input).not.toHaveProperty('blurFaces');
  });

  it('leaves blurFaces out of the save when the switch is untouched, and says when no faces were blurred', async () => {
    const { saved } = openEditInfo({ blurFaces: true, blurredClips: [] }, { blurFaces: true });
    expect(await screen.findByText('No faces were blurred in this tour.')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect((saved[0] as { input: object }).input).not.toHaveProperty('blurFaces');
  });
});

describe('Reels dialog', () => {
  it('lists reels with their states and shows the not-available answer of tourGenerateReel', async () => {
    const reel = (id: string, status: string, progress = 100) => ({
      __typename: 'Reel',
      id,
      key: `k${id}`,
      progress,
      highURI: status === 'CREATED' ? `/media/${id}.mp4` : null,
      thumbnailURL: null,
      status: { __typename: 'ReelStatus', status },
    });
    vi.stubGlobal(
      'fetch',
      stubFetch({
        TourReels: () => ({
          body: {
            data: {
              tour: {
                __typename: 'Tour',
                id: ID,
                title: 'Loft',
                reels: [reel('1', 'CREATED'), reel('2', 'PROCESSING', 40), reel('3', 'FAILED')],
              },
            },
          },
        }),
        TourGenerateReel: notAvailable,
      }).impl,
    );
    renderLoggedIn(<ReelsDialog open tourId={ID} onClose={() => undefined} />);
    expect(await screen.findByText('Reel 1')).toBeInTheDocument();
    expect(screen.getByText('You can generate up to 5 unique reels.')).toBeInTheDocument();
    expect(screen.getByText('Generating...')).toBeInTheDocument();
    expect(screen.getByText('Generation Failed Reel 3')).toBeInTheDocument();
    fireEvent.click(screen.getAllByText('Download')[1]!);
    expect(await screen.findByText('This reel is not ready to download.')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Generate reel'));
    expect(await screen.findByText(ERROR_TEXTS.notAvailableYet)).toBeInTheDocument();
  });

  it("refuses a sixth reel with 'Maximum number of reels reached'", async () => {
    const reels = [1, 2, 3, 4, 5].map((n) => ({
      __typename: 'Reel',
      id: `${n}`,
      key: `k${n}`,
      progress: 100,
      highURI: null,
      thumbnailURL: null,
      status: { __typename: 'ReelStatus', status: 'CREATED' },
    }));
    const api = stubFetch({
      TourReels: () => ({ body: { data: { tour: { __typename: 'Tour', id: ID, title: 'Loft', reels } } } }),
    });
    vi.stubGlobal('fetch', api.impl);
    renderLoggedIn(<ReelsDialog open tourId={ID} onClose={() => undefined} />);
    await screen.findByText('Reel 5');
    fireEvent.click(screen.getByText('Generate reel'));
    expect(await screen.findByText(VALIDATION.reelsMax)).toBeInTheDocument();
    expect(api.calls.some((c) => (c.body as { operationName?: string }).operationName === 'TourGenerateReel')).toBe(
      false,
    );
  });
});

describe('Sharing Options', () => {
  it('copies the share link (Copied) and the iFrame code, and draws the QR code', async () => {
    const writes: string[] = [];
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: async (t: string) => void writes.push(t) } });
    renderSharing({ showQr: true });
    const link = `${window.location.origin}/playerext?tourId=${ID}`;
    expect(screen.getByLabelText('Share Link')).toHaveValue(link);
    fireEvent.click(screen.getAllByText('Copy')[0]!);
    expect(await screen.findByText('Copied')).toBeInTheDocument();
    fireEvent.click(screen.getByText('iFrame Code'));
    await waitFor(() => expect(writes).toHaveLength(2));
    expect(writes[0]).toBe(link);
    expect(writes[1]).toContain('<iframe src=');
    // allow="fullscreen" alone: with allowfullscreen beside it Chromium warns on every load of the listing page.
    expect(writes[1]).toContain('allow="fullscreen; camera; microphone; clipboard-write"></iframe>');
    expect(writes[1]).not.toContain('allowfullscreen');
    expect(writes[1]).not.toContain('hostOrigins');
  });

  it("offers the Script Tag beside the iFrame Code, and fills hostOrigins from the listing site's address", async () => {
    const writes: string[] = [];
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: async (t: string) => void writes.push(t) } });
    renderSharing();
    fireEvent.click(screen.getByText('Script Tag'));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]).toBe(
      `<script src="${window.location.origin}/player/tour-player.js"></script>\n<tour-player tour-id="${ID}" mode="external"></tour-player>`,
    );
    const site = screen.getByLabelText('Your listing site (optional)');
    // A path is not an origin: said in the user's words, and nothing goes into the code.
    fireEvent.change(site, { target: { value: 'www.agency.test/listing' } });
    expect(screen.getByRole('alert')).toHaveTextContent('Enter the site’s address with https://');
    expect(site).toHaveAttribute('aria-invalid', 'true');
    fireEvent.change(site, { target: { value: 'https://www.agency.test/' } });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByText('iFrame Code'));
    await waitFor(() => expect(writes).toHaveLength(2));
    expect(writes[1]).toContain('&amp;hostOrigins=https%3A%2F%2Fwww.agency.test"');
  });

  it('carries liveViewing=true in the link, QR code, iFrame and Script Tag when the tour offers live viewing, never in the unbranded link', async () => {
    const writes: string[] = [];
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: async (t: string) => void writes.push(t) } });
    vi.stubGlobal(
      'fetch',
      stubFetch({
        TourShareSettings: () => ({ body: { data: { tour: { __typename: 'Tour', id: ID, liveViewing: true } } } }),
      }).impl,
    );
    renderSharing({ showQr: true });
    const live = `${window.location.origin}/playerext?tourId=${ID}&liveViewing=true`;
    await waitFor(() => expect(screen.getByLabelText('Share Link')).toHaveValue(live));
    expect(screen.getByTestId('live-viewing-hint')).toHaveTextContent('Live viewing is on');
    expect(await screen.findByAltText(`QR code for ${live}`)).toBeInTheDocument();
    expect(screen.getByLabelText('Unbranded link')).toHaveValue(
      `${window.location.origin}/playerext?tourId=${ID}&unbranded=true`,
    );
    fireEvent.click(screen.getByText('iFrame Code'));
    fireEvent.click(screen.getByText('Script Tag'));
    await waitFor(() => expect(writes).toHaveLength(2));
    expect(writes[0]).toContain('liveViewing=true');
    expect(writes[1]).toContain(' live-viewing>');
  });

  it('copies an audience link with liveViewing=true when the tour offers live viewing (an unbranded one without)', async () => {
    const writes: string[] = [];
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: async (t: string) => void writes.push(t) } });
    const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    const link = (id: string, label: string, unbranded: boolean) => ({
      id,
      label,
      url: `${window.location.origin}/playerext?tourId=${ID}&link=${token}`,
      status: 'ACTIVE',
      expiresAt: null,
      hiddenMarkerIds: [],
      unbranded,
      visits: 0,
      leadGate: null,
      createdAt: '2030-05-01T08:00:00Z',
    });
    vi.stubGlobal(
      'fetch',
      stubFetch({
        TourShareSettings: () => ({ body: { data: { tour: { __typename: 'Tour', id: ID, liveViewing: true } } } }),
        AudienceLinks: () => ({
          body: {
            data: {
              audienceLinks: [link('audlink_a', 'Open day', false), link('audlink_b', 'MLS', true)],
              tour: { id: ID, markers: [] },
            },
          },
        }),
      }).impl,
    );
    renderSharing();
    await waitFor(() => expect(screen.getByTestId('live-viewing-hint')).toHaveTextContent('Live viewing is on'));
    const row = (await screen.findByText('Open day')).closest('li')!;
    fireEvent.click(row.querySelector('sl-button')!);
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]).toBe(`${window.location.origin}/playerext?tourId=${ID}&link=${token}&liveViewing=true`);
    fireEvent.click(screen.getByText('MLS').closest('li')!.querySelector('sl-button')!);
    await waitFor(() => expect(writes).toHaveLength(2));
    expect(writes[1]).not.toContain('liveViewing');
  });

  it('offers the Unbranded link (MLS): the external player with unbranded=true, copied with its own button', async () => {
    const writes: string[] = [];
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: async (t: string) => void writes.push(t) } });
    renderSharing();
    const unbranded = `${window.location.origin}/playerext?tourId=${ID}&unbranded=true`;
    expect(screen.getByLabelText('Unbranded link')).toHaveValue(unbranded);
    expect(screen.getByLabelText('Unbranded link')).toHaveAccessibleDescription(/no logo, agent details, listing link/);
    fireEvent.click(screen.getAllByText('Copy')[1]!);
    await waitFor(() => expect(writes).toEqual([unbranded]));
  });
});
