/** Delete Tour's call and its notices: the tour deleted, or "could not delete" whatever the reason. */
import { useMutation } from 'urql';
import { NOTICES } from '@roomwalk/shared';
import { useSnackbar } from '../../ui/snackbar.js';
import { TourDeleteMutation } from './tour-operations.js';

export function useDeleteTour(tourId: string, onDeleted: () => void) {
  const [{ fetching }, remove] = useMutation(TourDeleteMutation);
  const notify = useSnackbar();
  return {
    deleting: fetching,
    remove: async () => {
      const r = await remove({ tourId });
      if (r.error || !r.data?.tourDelete.success) {
        notify('error', NOTICES.couldNotDeleteTour);
        return;
      }
      notify('success', NOTICES.deletedTour);
      onDeleted();
    },
  };
}
