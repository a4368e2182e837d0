/**
 * What Sharing Options needs of the tour while open: the owner's live viewing switch (Edit Info), which decides
 * whether every branded form carries liveViewing=true, and who may see it (a protected tour's links ask for the
 * password or a sign-in).
 */
import { useQuery } from 'urql';
import { TourShareSettingsQuery } from './tour-operations.js';

export function useShareSettings(tourId: string, open: boolean) {
  const [settings] = useQuery({ query: TourShareSettingsQuery, variables: { id: tourId }, pause: !open });
  return {
    liveViewing: settings.data?.tour?.liveViewing === true,
    access: settings.data?.tour?.access,
    /** Still reading: the links may yet change (the QR code waits). */
    fetching: settings.fetching,
  };
}
