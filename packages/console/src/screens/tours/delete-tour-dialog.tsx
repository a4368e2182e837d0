/** 'Are you sure you want to delete this tour?' with Cancel and Delete; notices. */
import { useMutation } from 'urql';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { NOTICES } from '@roomwalk/shared';
import { Dialog } from '../../ui/dialog.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { TourDeleteMutation } from './tour-operations.js';
import { TOUR_TEXTS } from './texts.js';

export function DeleteTourDialog({
  open,
  tourId,
  onClose,
  onDeleted,
}: {
  open: boolean;
  tourId: string;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const [{ fetching }, remove] = useMutation(TourDeleteMutation);
  const notify = useSnackbar();
  const onDelete = async () => {
    const r = await remove({ tourId });
    if (r.error || !r.data?.tourDelete.success) {
      notify('error', NOTICES.couldNotDeleteTour);
      return;
    }
    notify('success', NOTICES.deletedTour);
    onDeleted();
  };
  return (
    <Dialog
      open={open}
      label={TOUR_TEXTS.deleteTour}
      onClose={onClose}
      persistent={fetching}
      footer={
        <>
          <SlButton onClick={onClose} disabled={fetching}>
            {TOUR_TEXTS.cancel}
          </SlButton>
          <SlButton variant="danger" loading={fetching} onClick={() => void onDelete()}>
            {TOUR_TEXTS.delete}
          </SlButton>
        </>
      }
    >
      <p>{TOUR_TEXTS.deleteConfirm}</p>
    </Dialog>
  );
}
