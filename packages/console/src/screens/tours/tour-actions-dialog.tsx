/**
 * The dialog a tour card opens: Preview, Edit Fast Travel, Edit Info, Generate QR Code, Instant Reels,
 * Share, Delete tour; a copy-link button in the header (Copied / Failed for 6 s). Team members' tours: Preview and
 * Share only.
 */
import { useNavigate } from 'react-router-dom';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { Dialog } from '../../ui/dialog.js';
import { useClipboard } from '../../state/use-clipboard.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { NOTICES } from '@roomwalk/shared';
import { externalPlayerUrl, shareData, shareTour } from './share-links.js';
import { copyLabel } from './share-fields.js';
import { TOUR_TEXTS } from './texts.js';
import type { TourCardData } from './tour-card.js';

export type TourAction = 'info' | 'qr' | 'reels' | 'delete';

export interface TourActionsDialogProps {
  open: boolean;
  tour: TourCardData;
  /** A team member's tour: Preview and Share only. */
  team?: boolean;
  onClose: () => void;
  onAction: (action: TourAction) => void;
}

export function TourActionsDialog({ open, tour, team = false, onClose, onAction }: TourActionsDialogProps) {
  const navigate = useNavigate();
  const link = useClipboard();
  const shareCopy = useClipboard();
  const notify = useSnackbar();
  const q = `?tourId=${encodeURIComponent(tour.id)}`;
  const title = tour.title?.trim() || TOUR_TEXTS.titlePlaceholder;

  const onShare = async () => {
    const r = await shareTour(shareData(tour.id, tour.title, undefined, tour.liveViewing === true), shareCopy.copy);
    if (r === 'copied') notify('info', NOTICES.copied);
  };

  const item = (label: string, icon: string, onClick: () => void, variant: 'default' | 'danger' = 'default') => (
    <li>
      <SlButton className="action-button" variant={variant} onClick={onClick}>
        <SlIcon slot="prefix" name={icon} />
        {label}
      </SlButton>
    </li>
  );

  return (
    <Dialog open={open} label={title} onClose={onClose} className="tour-actions-dialog">
      <SlButton
        slot="header-actions"
        size="small"
        variant="text"
        onClick={() => void link.copy(externalPlayerUrl(tour.id, undefined, tour.liveViewing === true))}
        aria-live="polite"
      >
        <SlIcon slot="prefix" name={link.state === 'copied' ? 'check-lg' : 'link-45deg'} />
        {/* On a phone the header keeps the icon only, so the tour's title has the width (the name stays for readers). */}
        <span className="copy-link-text">{copyLabel(link.state, TOUR_TEXTS.copyLink)}</span>
      </SlButton>
      <ul className="action-list" aria-label={`Actions for ${title}`}>
        {item(TOUR_TEXTS.preview, 'play-fill', () => navigate(`/previewplayer${q}`))}
        {team ? null : (
          <>
            {item(TOUR_TEXTS.editFastTravel, 'pencil', () => navigate(`/editplayer${q}`))}
            {item(TOUR_TEXTS.editInfo, 'info-circle', () => onAction('info'))}
            {item(TOUR_TEXTS.generateQr, 'qr-code', () => onAction('qr'))}
            {item(TOUR_TEXTS.instantReels, 'film', () => onAction('reels'))}
            {item(TOUR_TEXTS.professionalPhotos, 'image', () => navigate(`/tour/${encodeURIComponent(tour.id)}/shots`))}
            {item(TOUR_TEXTS.tourAnalytics, 'bar-chart-line', () =>
              navigate(`/tour/${encodeURIComponent(tour.id)}/analytics`),
            )}
          </>
        )}
        {item(TOUR_TEXTS.share, 'share', () => void onShare())}
        {team ? null : item(TOUR_TEXTS.deleteTour, 'trash', () => onAction('delete'), 'danger')}
      </ul>
    </Dialog>
  );
}
