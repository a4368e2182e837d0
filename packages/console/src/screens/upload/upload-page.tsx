/**
 * /upload (tours §2, §4): pick a video → duration and resolution checked in the browser (from the MP4/MOV container,
 * any codec; else a <video> element; else the server decides) → converted on the device when that ends sooner
 * ('Preparing video on this device… 40%', send-video.ts, docs/upload-conversion.md) → a resumable multipart upload
 * straight to storage (extension sent; parts in parallel, retried, resumed after a drop or when the same file is
 * picked again) with a progress bar, speed and time left → submit (key) → the Tour Info dialog → saving goes to /.
 * Failures open one of the four upload error dialogs of tours §8 with a retry and 'Return to Tours'. The uploading
 * dialog's close button, Escape or Cancel upload aborts the PUT (nothing is submitted); once the file is stored and the
 * tour is being created the dialog cannot be closed and shows no close button.
 */
import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useClient } from 'urql';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import SlProgressBar from '@shoelace-style/shoelace/dist/react/progress-bar/index.js';
import { ERROR_CODES, ERROR_TEXTS, checkVideoMeta } from '@roomwalk/shared';
import type { FailureCode } from '../../graphql/errors.js';
import { Dialog } from '../../ui/dialog.js';
import { Page } from '../../ui/page.js';
import { TourInfoDialog } from '../tours/tour-info-dialog.js';
import { TOUR_TEXTS } from '../tours/texts.js';
import { NOT_A_VIDEO, probeVideo } from './read-video-meta.js';
import type { SendProgress } from './send-video.js';
import { asUploadError } from './upload-error.js';
import { progressLine } from './upload-progress.js';
import { TipsCarousel } from './tips-carousel.js';
import '../tours/tours.css';

export type UploadErrorKind = 'general' | 'short' | 'long' | 'resolution' | 'unreadable';

/** Title, action button and whether the action picks a new file, per error kind (tours §8). */
const UPLOAD_ERRORS: Record<UploadErrorKind, { title: string; action: string; pickNew: boolean }> = {
  general: { title: ERROR_TEXTS.uploadFailedTitle, action: TOUR_TEXTS.retry, pickNew: false },
  short: { title: ERROR_TEXTS.videoTooShortTitle, action: TOUR_TEXTS.uploadLonger, pickNew: true },
  long: { title: ERROR_TEXTS.videoTooLongTitle, action: TOUR_TEXTS.uploadShorter, pickNew: true },
  resolution: { title: ERROR_TEXTS.videoResolutionTitle, action: TOUR_TEXTS.uploadHigherRes, pickNew: true },
  // Not in the spec: a file that is no video at all, caught before the upload; retrying the same file cannot help.
  unreadable: { title: ERROR_TEXTS.uploadFailedTitle, action: TOUR_TEXTS.uploadAnotherVideo, pickNew: true },
};

const KIND_BY_CODE: Partial<Record<FailureCode, UploadErrorKind>> = {
  [ERROR_CODES.VIDEO_TOO_SHORT]: 'short',
  [ERROR_CODES.VIDEO_TOO_LONG]: 'long',
  [ERROR_CODES.VIDEO_RESOLUTION_LOW]: 'resolution',
};

type Step =
  | { name: 'idle' }
  | { name: 'checking' }
  | { name: 'uploading'; progress: SendProgress }
  | { name: 'submitting' }
  | { name: 'cancelled' }
  | { name: 'info'; tourId: string }
  | { name: 'error'; kind: UploadErrorKind; detail: string };

export default function UploadPage() {
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const file = useRef<File | null>(null);
  const [step, setStep] = useState<Step>({ name: 'idle' });
  const client = useClient();
  // The running upload's PUT: the dialog's close button, Escape or Cancel aborts it, and nothing is submitted.
  const running = useRef<AbortController | null>(null);
  const cancel = () => {
    running.current?.abort();
    running.current = null;
    setStep({ name: 'cancelled' });
  };

  const fail = (kind: UploadErrorKind, detail = '') => setStep({ name: 'error', kind, detail });

  const run = async (f: File) => {
    setStep({ name: 'checking' });
    // null: the browser cannot read this file; it is uploaded and the server's processing gives the verdict.
    const meta = await probeVideo(f);
    if (meta === NOT_A_VIDEO) return fail('unreadable', ERROR_TEXTS.videoUnreadable);
    if (meta) {
      const bad = checkVideoMeta(meta);
      if (bad) return fail(KIND_BY_CODE[bad.code] ?? 'general', bad.message);
    }

    const controller = new AbortController();
    running.current = controller;
    setStep({ name: 'uploading', progress: { phase: 'uploading', bytesUploaded: 0, bytesTotal: f.size, percent: 0, bytesPerSecond: null, secondsLeft: null, resuming: false } });
    try {
      const { sendVideo, submitUpload } = await import('./send-video.js');
      const { key } = await sendVideo({
        client,
        file: f,
        signal: controller.signal,
        onProgress: (progress) => {
          if (!controller.signal.aborted) setStep({ name: 'uploading', progress });
        },
      });
      if (controller.signal.aborted) return;
      // From here the tour is being created: no cancelling half-way.
      running.current = null;
      setStep({ name: 'submitting' });
      const tourId = await submitUpload(client, key);
      setStep({ name: 'info', tourId });
    } catch (e) {
      if (controller.signal.aborted) return;
      // One channel: every failure of the flow is an UploadError with a code and the user's words.
      const err = asUploadError(e);
      fail(KIND_BY_CODE[err.code] ?? 'general', err.message);
    }
  };

  const onPick = (f: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!f) return;
    file.current = f;
    void run(f);
  };

  const err = step.name === 'error' ? UPLOAD_ERRORS[step.kind] : null;
  const busy = step.name === 'checking' || step.name === 'uploading' || step.name === 'submitting';
  return (
    <Page title="Upload" back="/" narrow className="upload-page">
      <div className="stack">
        <SlButton variant="primary" size="large" onClick={() => input.current?.click()} loading={busy} disabled={busy}>
          <SlIcon slot="prefix" name="upload" />
          {TOUR_TEXTS.uploadVideo}
        </SlButton>
        <input ref={input} type="file" accept="video/*" hidden aria-label={TOUR_TEXTS.uploadVideo} data-testid="video-input" onChange={(e) => onPick(e.target.files?.[0])} />
        <p role="status" className={step.name === 'checking' || step.name === 'cancelled' ? undefined : 'visually-hidden'}>
          {step.name === 'checking' ? TOUR_TEXTS.checkingVideo : step.name === 'cancelled' ? TOUR_TEXTS.uploadCancelled : ''}
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
        <SlProgressBar value={step.name === 'uploading' ? step.progress.percent : 100} label={TOUR_TEXTS.uploadingTitle} data-testid="upload-progress">
          {step.name === 'uploading' ? `${step.progress.percent}%` : '100%'}
        </SlProgressBar>
        <p className="muted" role="status" aria-live="polite" data-testid="upload-progress-line">
          {step.name === 'uploading' ? progressLine(step.progress) : '100%'}
        </p>
      </Dialog>

      <Dialog
        open={!!err}
        label={err?.title ?? ''}
        onClose={() => setStep({ name: 'idle' })}
        footer={
          <>
            <SlButton onClick={() => navigate('/')}>{TOUR_TEXTS.returnToTours}</SlButton>
            <SlButton
              variant="primary"
              onClick={() => {
                if (err?.pickNew || !file.current) {
                  setStep({ name: 'idle' });
                  input.current?.click();
                } else void run(file.current);
              }}
            >
              {err?.action}
            </SlButton>
          </>
        }
      >
        {step.name === 'error' && step.detail ? <p data-testid="upload-error-detail">{step.detail}</p> : null}
        {step.name === 'error' && step.kind === 'resolution' ? <p className="muted">{TOUR_TEXTS.resolutionTips}</p> : null}
      </Dialog>

      {step.name === 'info' ? <TourInfoDialog open mode="upload" tour={{ id: step.tourId }} onClose={() => navigate('/')} onSaved={() => navigate('/')} /> : null}
    </Page>
  );
}
