/** The setup the Tour Info and Sharing Options tests share: the dialogs opened for the tour "Loft", logged in. */
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { TourInfoDialog } from './tour-info-dialog.js';
import { SharingDialog } from './sharing-dialog.js';
import { loggedInStore, renderRoute, stubFetch } from '../../test/helpers.js';

export const TOUR_ID = 'tour_0b6c9d9e-2a7e-4f61-9d55-6a3f3c1f1a10';

/** Renders a dialog on its own route with a logged-in session. */
export const renderLoggedIn = (dialog: ReactElement) =>
  renderRoute(dialog, { path: '/', route: '/', store: loggedInStore() });

/** Tour Info in edit mode for "Loft" (no description, no listing link). */
export const renderEditInfo = () =>
  renderLoggedIn(
    <TourInfoDialog
      open
      mode="edit"
      tour={{ id: TOUR_ID, title: 'Loft', description: null, listingLink: null }}
      onClose={() => undefined}
      onSaved={() => undefined}
    />,
  );

/** Sharing Options for "Loft"; `showQr` opens it with the QR code drawn. */
export const renderSharing = (opts: { showQr?: boolean } = {}) =>
  renderLoggedIn(<SharingDialog open showQr={opts.showQr} tourId={TOUR_ID} title="Loft" onClose={() => undefined} />);

/**
 * Opens Edit Info with the tour's privacy settings as the server has them (`privacy`), answering each TourSave with the
 * tour plus `answer` in `status`, and each TourAccessSet with the access asked for. Returns the variables of each
 * TourSave (`saved`) and TourAccessSet (`access`) sent.
 */
export function openEditInfo(
  privacy: Record<string, unknown>,
  answer: Record<string, unknown> = {},
  status = 'PROCESSED',
): { saved: unknown[]; access: unknown[] } {
  const calls = { saved: [] as unknown[], access: [] as unknown[] };
  const tour = {
    __typename: 'Tour',
    id: TOUR_ID,
    title: 'Loft',
    description: null,
    videoURL: null,
    listingLink: null,
    ...answer,
    status: { __typename: 'TourStatus', status },
  };
  vi.stubGlobal(
    'fetch',
    stubFetch({
      TourPrivacy: () => ({ body: { data: { tour: { __typename: 'Tour', id: TOUR_ID, ...privacy } } } }),
      TourSave: (body) => {
        calls.saved.push((body as { variables: unknown }).variables);
        return { body: { data: { tourSave: tour } } };
      },
      TourAccessSet: (body) => {
        calls.access.push((body as { variables: unknown }).variables);
        const input = (body as { variables: { input: { access: string } } }).variables.input;
        return { body: { data: { tourAccessSet: { __typename: 'Tour', id: TOUR_ID, access: input.access } } } };
      },
    }).impl,
  );
  renderEditInfo();
  return calls;
}
