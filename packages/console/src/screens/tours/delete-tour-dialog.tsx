/** 'Are you sure you want to delete this tour?' with Cancel and Delete; notices. */
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { Dialog } from '../../ui/dialog.js';
import { TOUR_TEXTS } from './texts.js';
import { useDeleteTour } from './use-delete-tour.js';

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
  const { deleting: fetching, remove: onDelete } = useDeleteTour(tourId, onDeleted);
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
