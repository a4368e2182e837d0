/**
 * Sharing Options: Share Link (the external player URL), Generate QR Code (downloadable PNG), iFrame Code
 * and, beside it, Script Tag (copied to the clipboard), with the listing site's address that fills the iframe's
 * hostOrigins. The qrcode library loads with this dialog only.
 */
import { useEffect, useState } from 'react';
import { useQuery } from 'urql';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { NOTICES } from '@roomwalk/shared';
import { Dialog } from '../../ui/dialog.js';
import { useClipboard, type CopyState } from '../../state/use-clipboard.js';
import { externalPlayerUrl, iframeCode, scriptTagCode, unbrandedPlayerUrl } from './share-links.js';
import { readHostOrigins } from '../player/player-flags.js';
import { TOUR_TEXTS } from './texts.js';
import { TourShareSettingsQuery } from './tour-operations.js';
import { AudienceLinksSection } from './audience-links-section.js';
import { FlyerSection } from './flyer-section.js';

export interface SharingDialogProps {
  open: boolean;
  tourId: string;
  title: string | null | undefined;
  onClose: () => void;
  /** Open with the QR code already generated (the card's 'Generate QR Code'). */
  showQr?: boolean;
}

export const copyLabel = (state: CopyState, idle: string): string =>
  state === 'copied' ? NOTICES.copied : state === 'error' ? NOTICES.copyFailed : idle;

/** A PNG data URL of the QR code for a link. */
async function qrPng(text: string): Promise<string> {
  const { toDataURL } = await import('qrcode');
  return toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 512, type: 'image/png' });
}

export function SharingDialog({ open, tourId, title, onClose, showQr = false }: SharingDialogProps) {
  // The owner's live viewing switch (Edit Info) decides whether every branded form carries liveViewing=true.
  const [settings] = useQuery({ query: TourShareSettingsQuery, variables: { id: tourId }, pause: !open });
  const liveViewing = settings.data?.tour?.liveViewing === true;
  // A protected tour's links ask for the password or a sign-in: said here, where they are copied.
  const access = settings.data?.tour?.access;
  const link = externalPlayerUrl(tourId, undefined, liveViewing);
  const linkCopy = useClipboard();
  const frameCopy = useClipboard();
  const scriptCopy = useClipboard();
  const [site, setSite] = useState('');
  const hostOrigins = readHostOrigins(site);
  const siteInvalid = site.trim() !== '' && hostOrigins.length === 0;
  const unbrandedCopy = useClipboard();
  const unbranded = unbrandedPlayerUrl(tourId);
  const [qr, setQr] = useState<string | null>(null);
  const [qrWanted, setQrWanted] = useState(showQr);
  const [qrError, setQrError] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: opening the dialog again resets the QR choice
  useEffect(() => setQrWanted(showQr), [showQr, open]);
  useEffect(() => {
    if (!open || !qrWanted || qr || settings.fetching) return;
    let live = true;
    qrPng(link).then(
      (url) => live && setQr(url),
      () => live && setQrError(true),
    );
    return () => {
      live = false;
    };
  }, [open, qrWanted, qr, link, settings.fetching]);

  const fileName = `${(title?.trim() || 'tour').replace(/[^\w-]+/g, '_').slice(0, 40)}_qr.png`;
  return (
    <Dialog
      open={open}
      label={TOUR_TEXTS.sharingOptions}
      onClose={onClose}
      footer={<SlButton onClick={onClose}>{TOUR_TEXTS.close}</SlButton>}
    >
      <div className="stack sharing">
        <div className="field">
          <label htmlFor="share-link">{TOUR_TEXTS.shareLink}</label>
          <div className="row nowrap">
            <input
              id="share-link"
              className="share-input"
              readOnly
              value={link}
              onFocus={(e) => e.currentTarget.select()}
            />
            <SlButton
              onClick={() => void linkCopy.copy(link)}
              loading={linkCopy.state === 'copying'}
              aria-live="polite"
            >
              {copyLabel(linkCopy.state, 'Copy')}
            </SlButton>
          </div>
          <p className="field-hint" data-testid="live-viewing-hint">
            {liveViewing ? TOUR_TEXTS.liveViewingOnHint : TOUR_TEXTS.liveViewingOffHint}
          </p>
          {access === 'PASSWORD' || access === 'COMPANY' ? (
            <p className="field-hint" data-testid="access-hint">
              {access === 'PASSWORD' ? TOUR_TEXTS.accessPasswordShare : TOUR_TEXTS.accessCompanyShare}
            </p>
          ) : null}
        </div>
        <div>
          {qr ? (
            <figure className="qr">
              <img src={qr} alt={`QR code for ${link}`} width={256} height={256} data-testid="qr-image" />
              <figcaption>
                <a className="sl-like-button" href={qr} download={fileName}>
                  {TOUR_TEXTS.downloadPng}
                </a>
              </figcaption>
            </figure>
          ) : (
            <SlButton onClick={() => setQrWanted(true)} loading={qrWanted && !qrError}>
              {TOUR_TEXTS.generateQr}
            </SlButton>
          )}
          {qrError ? (
            <p className="form-failure" role="alert">
              {NOTICES.copyFailed}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="host-origin">{TOUR_TEXTS.listingSite}</label>
          <input
            id="host-origin"
            className="share-input"
            type="url"
            inputMode="url"
            placeholder="https://www.your-agency.com"
            value={site}
            onChange={(e) => setSite(e.currentTarget.value)}
            aria-invalid={siteInvalid}
            aria-describedby={siteInvalid ? 'host-origin-error host-origin-help' : 'host-origin-help'}
          />
          {siteInvalid ? (
            <p id="host-origin-error" className="form-failure" role="alert">
              {TOUR_TEXTS.listingSiteInvalid}
            </p>
          ) : null}
          <p id="host-origin-help" className="field-hint">
            {TOUR_TEXTS.listingSiteHelp}
          </p>
        </div>
        <div>
          <div className="row">
            <SlButton
              onClick={() => void frameCopy.copy(iframeCode(tourId, title, undefined, hostOrigins, liveViewing))}
              loading={frameCopy.state === 'copying'}
              aria-describedby="iframe-code-help"
            >
              {copyLabel(frameCopy.state, TOUR_TEXTS.iframeCode)}
            </SlButton>
            <SlButton
              onClick={() => void scriptCopy.copy(scriptTagCode(tourId, undefined, liveViewing))}
              loading={scriptCopy.state === 'copying'}
              aria-describedby="iframe-code-help"
            >
              {copyLabel(scriptCopy.state, TOUR_TEXTS.scriptTag)}
            </SlButton>
          </div>
          <p id="iframe-code-help" className="field-hint">
            {TOUR_TEXTS.iframeCodeHelp}
          </p>
        </div>
        <div className="field">
          <label htmlFor="unbranded-link">{TOUR_TEXTS.unbrandedLink}</label>
          <div className="row nowrap">
            <input
              id="unbranded-link"
              className="share-input"
              readOnly
              value={unbranded}
              aria-describedby="unbranded-link-help"
              onFocus={(e) => e.currentTarget.select()}
            />
            <SlButton
              onClick={() => void unbrandedCopy.copy(unbranded)}
              loading={unbrandedCopy.state === 'copying'}
              aria-live="polite"
            >
              {copyLabel(unbrandedCopy.state, 'Copy')}
            </SlButton>
          </div>
          <p id="unbranded-link-help" className="field-hint">
            {TOUR_TEXTS.unbrandedLinkHelp}
          </p>
        </div>
        <FlyerSection tourId={tourId} />
        {open ? (
          <AudienceLinksSection tourId={tourId} passwordTour={access === 'PASSWORD'} liveViewing={liveViewing} />
        ) : null}
      </div>
    </Dialog>
  );
}
