/** Tour re-activation: runs tourReactivate for the link's tour (once, when the page opens); true when it took. */
import { useMutation } from 'urql';
import { TourReactivateMutation } from './auth-operations.js';

export function useTourReactivate(tourId: string) {
  const [, reactivate] = useMutation(TourReactivateMutation);
  return async (): Promise<boolean> => {
    if (!tourId) return false;
    const r = await reactivate({ id: tourId });
    if (r.error) console.error('Re-activation failed', r.error);
    return !r.error && !!r.data?.tourReactivate.id;
  };
}
