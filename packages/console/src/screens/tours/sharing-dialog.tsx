/**
 * Sharing Options: Share Link (the external player URL), Generate QR Code (downloadable PNG), iFrame Code
 * and, beside it, Script Tag (copied to the clipboard), with the listing site's address that fills the iframe's
 * hostOrigins, the unbranded link, the flyer and the audience links (the fields: share-fields.tsx). The qrcode library
 * loads with this dialog only.
 */
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { Dialog } from '../../ui/dialog.js';
import { externalPlayerUrl } from './share-links.js';
import { TOUR_TEXTS } from './texts.js';
import { AudienceLinksSection } from './audience-links-section.js';
import { FlyerSection } from './flyer-section.js';
import { EmbedCodeFields, QrCodeField, ShareLinkField, UnbrandedLinkField } from './share-fields.js';
import { useShareSettings } from './use-share-settings.js';

export interface SharingDialogProps {
  open: boolean;
  tourId: string;
  title: string | null | undefined;
  onClose: () => void;
  /** Open with the QR code already generated (the card's 'Generate QR Code'). */
  showQr?: boolean;
}

export function SharingDialog({ open, tourId, title, onClose, showQr = false }: SharingDialogProps) {
  const { liveViewing, access, fetching } = useShareSettings(tourId, open);
  const link = externalPlayerUrl(tourId, undefined, liveViewing);
  return (
    <Dialog
      open={open}
      label={TOUR_TEXTS.sharingOptions}
      onClose={onClose}
      footer={<SlButton onClick={onClose}>{TOUR_TEXTS.close}</SlButton>}
    >
      <div className="stack sharing">
        <ShareLinkField link={link} liveViewing={liveViewing} access={access} />
        <QrCodeField open={open} ready={!fetching} link={link} title={title} showQr={showQr} />
        <EmbedCodeFields tourId={tourId} title={title} liveViewing={liveViewing} />
        <UnbrandedLinkField tourId={tourId} />
        <FlyerSection tourId={tourId} />
        {open ? (
          <AudienceLinksSection tourId={tourId} passwordTour={access === 'PASSWORD'} liveViewing={liveViewing} />
        ) : null}
      </div>
    </Dialog>
  );
}
