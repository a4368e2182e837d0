/**
 * The dialogs a tour card opens on the home page: its actions first, then the one chosen (Tour Info, Sharing Options
 * with the QR code, Instant Reels, Delete), each loaded only when first opened.
 */
import { lazy, Suspense } from 'react';
import type { TourCardData } from './tour-card.js';
import { TourActionsDialog, type TourAction } from './tour-actions-dialog.js';

const TourInfoDialog = lazy(() => import('./tour-info-dialog.js').then((m) => ({ default: m.TourInfoDialog })));
const SharingDialog = lazy(() => import('./sharing-dialog.js').then((m) => ({ default: m.SharingDialog })));
const ReelsDialog = lazy(() => import('./reels-dialog.js').then((m) => ({ default: m.ReelsDialog })));
const DeleteTourDialog = lazy(() => import('./delete-tour-dialog.js').then((m) => ({ default: m.DeleteTourDialog })));

/** Which dialog is open for which card (`team`: a teammate's tour, from Team Tours). */
export type OpenCard = { kind: 'actions' | TourAction; tour: TourCardData; team?: boolean };

export function TourCardDialogs({
  open,
  onOpen,
  onClose,
  onChanged,
}: {
  open: OpenCard;
  onOpen: (next: OpenCard) => void;
  onClose: () => void;
  /** Closes and reads the tours again (saved, deleted). */
  onChanged: () => void;
}) {
  return (
    <>
      <TourActionsDialog
        open={open.kind === 'actions'}
        tour={open.tour}
        team={open.team}
        onClose={onClose}
        onAction={(kind) => onOpen({ kind, tour: open.tour })}
      />
      <Suspense fallback={null}>
        {open.kind === 'info' ? (
          <TourInfoDialog open mode="edit" tour={open.tour} onClose={onChanged} onSaved={onChanged} />
        ) : null}
        {open.kind === 'qr' ? (
          <SharingDialog open showQr tourId={open.tour.id} title={open.tour.title} onClose={onClose} />
        ) : null}
        {open.kind === 'reels' ? <ReelsDialog open tourId={open.tour.id} onClose={onClose} /> : null}
        {open.kind === 'delete' ? (
          <DeleteTourDialog open tourId={open.tour.id} onClose={onClose} onDeleted={onChanged} />
        ) : null}
      </Suspense>
    </>
  );
}
