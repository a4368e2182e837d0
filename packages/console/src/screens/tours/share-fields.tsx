/**
 * Sharing Options' fields, each copying one form of the tour's link: the Share Link with its hints, the QR code
 * (downloadable PNG; the qrcode library loads only when one is drawn), the iFrame Code and Script Tag with the listing
 * site's address that fills the iframe's hostOrigins, and the unbranded link.
 */
import { useEffect, useState } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { NOTICES } from '@roomwalk/shared';
import { useClipboard, type CopyState } from '../../state/use-clipboard.js';
import { readHostOrigins } from '../player/player-flags.js';
import { iframeCode, scriptTagCode, unbrandedPlayerUrl } from './share-links.js';
import { TOUR_TEXTS } from './texts.js';

export const copyLabel = (state: CopyState, idle: string): string =>
  state === 'copied' ? NOTICES.copied : state === 'error' ? NOTICES.copyFailed : idle;

/** A PNG data URL of the QR code for a link. */
async function qrPng(text: string): Promise<string> {
  const { toDataURL } = await import('qrcode');
  return toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 512, type: 'image/png' });
}

/** The Share Link (the external player URL) with Copy, whether it offers live viewing, and what a protected tour asks. */
export function ShareLinkField({
  link,
  liveViewing,
  access,
}: {
  link: string;
  liveViewing: boolean;
  access: string | null | undefined;
}) {
  const linkCopy = useClipboard();
  return (
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
        <SlButton onClick={() => void linkCopy.copy(link)} loading={linkCopy.state === 'copying'} aria-live="polite">
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
  );
}

/**
 * Generate QR Code: drawn once asked (or at once with `showQr`, asked again each time the dialog opens) and the link
 * is settled (`ready`), with its PNG to download.
 */
export function QrCodeField({
  open,
  ready,
  link,
  title,
  showQr,
}: {
  open: boolean;
  ready: boolean;
  link: string;
  title: string | null | undefined;
  showQr: boolean;
}) {
  const [qr, setQr] = useState<string | null>(null);
  const [qrWanted, setQrWanted] = useState(showQr);
  const [qrError, setQrError] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: opening the dialog again resets the QR choice
  useEffect(() => setQrWanted(showQr), [showQr, open]);
  useEffect(() => {
    if (!open || !qrWanted || qr || !ready) return;
    let live = true;
    qrPng(link).then(
      (url) => live && setQr(url),
      () => live && setQrError(true),
    );
    return () => {
      live = false;
    };
  }, [open, qrWanted, qr, link, ready]);

  const fileName = `${(title?.trim() || 'tour').replace(/[^\w-]+/g, '_').slice(0, 40)}_qr.png`;
  return (
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
  );
}

/** The listing site's address (filling the iframe's hostOrigins), then iFrame Code and Script Tag, copied. */
export function EmbedCodeFields({
  tourId,
  title,
  liveViewing,
}: {
  tourId: string;
  title: string | null | undefined;
  liveViewing: boolean;
}) {
  const frameCopy = useClipboard();
  const scriptCopy = useClipboard();
  const [site, setSite] = useState('');
  const hostOrigins = readHostOrigins(site);
  const siteInvalid = site.trim() !== '' && hostOrigins.length === 0;
  return (
    <>
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
    </>
  );
}

/** The unbranded link (no agent branding), with Copy. */
export function UnbrandedLinkField({ tourId }: { tourId: string }) {
  const unbrandedCopy = useClipboard();
  const unbranded = unbrandedPlayerUrl(tourId);
  return (
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
  );
}
