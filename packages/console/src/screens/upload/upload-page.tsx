/**
 * /upload: pick a video → duration and resolution checked in the browser (from the MP4/MOV container,
 * any codec; else a <video> element; else the server decides) → converted on the device when that ends sooner
 * ('Preparing video on this device… 40%', send-video.ts, docs/upload-conversion.md) → a resumable multipart upload
 * straight to storage (extension sent; parts in parallel, retried, resumed after a drop or when the same file is
 * picked again) with a progress bar, speed and time left → submit (key) → the Tour Info dialog → saving goes to /.
 * Failures open one of the four upload error dialogs with a retry and 'Return to Tours'. The uploading
 * dialog's close button, Escape or Cancel upload aborts the PUT (nothing is submitted); once the file is stored and the
 * tour is being created the dialog cannot be closed and shows no close button.
 */
import { Link, useNavigate } from 'react-router-dom';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import SlProgressBar from '@shoelace-style/shoelace/dist/react/progress-bar/index.js';
import { Dialog } from '../../ui/dialog.js';
import { Page } from '../../ui/page.js';
import { TourInfoDialog } from '../tours/tour-info-dialog.js';
import { TOUR_TEXTS } from '../tours/texts.js';
import { progressLine } from './upload-progress.js';
import { UPLOAD_ERRORS } from './upload-rules.js';
import { TipsCarousel } from './tips-carousel.js';
import { useUpload } from './use-upload.js';
import '../tours/tours.css';

export default function UploadPage() {
  const navigate = useNavigate();
  const { step, input, busy, pick, cancel, retry, dismiss } = useUpload();
  const err = step.name === 'error' ? UPLOAD_ERRORS[step.kind] : null;
  return (
    <Page title="Upload" back="/" narrow className="upload-page">
      <div className="stack">
        <SlButton variant="primary" size="large" onClick={() => input.current?.click()} loading={busy} disabled={busy}>
          <SlIcon slot="prefix" name="upload" />
          {TOUR_TEXTS.uploadVideo}
        </SlButton>
        <input
          ref={input}
          type="file"
          accept="video/*"
          hidden
          aria-label={TOUR_TEXTS.uploadVideo}
          data-testid="video-input"
          onChange={(e) => pick(e.target.files?.[0])}
        />
        <p
          role="status"
          className={step.name === 'checking' || step.name === 'cancelled' ? undefined : 'visually-hidden'}
        >
          {step.name === 'checking'
            ? TOUR_TEXTS.checkingVideo
            : step.name === 'cancelled'
              ? TOUR_TEXTS.uploadCancelled
              : ''}
        </p>
        <p className="muted">
          {TOUR_TEXTS.termsPrefix} <Link to="/terms">{TOUR_TEXTS.terms}</Link>.
        </p>
        <TipsCarousel />
      </div>

      <Dialog
        open={step.name === 'uploading' || step.name === 'submitting'}
        label={TOUR_TEXTS.uploadingTitle}
        onClose={cancel}
        persistent={step.name === 'submitting'}
        footer={step.name === 'uploading' ? <SlButton onClick={cancel}>{TOUR_TEXTS.cancelUpload}</SlButton> : undefined}
      >
        <p>{TOUR_TEXTS.uploadingBody}</p>
        <SlProgressBar
          value={step.name === 'uploading' ? step.progress.percent : 100}
          label={TOUR_TEXTS.uploadingTitle}
          data-testid="upload-progress"
        >
          {step.name === 'uploading' ? `${step.progress.percent}%` : '100%'}
        </SlProgressBar>
        <p className="muted" role="status" aria-live="polite" data-testid="upload-progress-line">
          {step.name === 'uploading' ? progressLine(step.progress) : '100%'}
        </p>
      </Dialog>

      <Dialog
        open={!!err}
        label={err?.title ?? ''}
        onClose={dismiss}
        footer={
          <>
            <SlButton onClick={() => navigate('/')}>{TOUR_TEXTS.returnToTours}</SlButton>
            <SlButton variant="primary" onClick={retry}>
              {err?.action}
            </SlButton>
          </>
        }
      >
        {step.name === 'error' && step.detail ? <p data-testid="upload-error-detail">{step.detail}</p> : null}
        {step.name === 'error' && step.kind === 'resolution' ? (
          <p className="muted">{TOUR_TEXTS.resolutionTips}</p>
        ) : null}
      </Dialog>

      {step.name === 'info' ? (
        <TourInfoDialog
          open
          mode="upload"
          tour={{ id: step.tourId }}
          onClose={() => navigate('/')}
          onSaved={() => navigate('/')}
        />
      ) : null}
    </Page>
  );
}
