/**
 * The upload screen's flow: pick → check in the browser → convert or send (send-video.ts) → submit → Tour Info. One
 * step at a time; the running upload can be cancelled until the file is stored; every failure is an UploadError
 * (upload-error.ts), shown as one of the error dialogs (upload-rules.ts).
 */
import { useRef, useState } from 'react';
import { ERROR_TEXTS, checkVideoMeta } from '@roomwalk/shared';
import { NOT_A_VIDEO, probeVideo } from './read-video-meta.js';
import type { SendProgress } from './send-video.js';
import { asUploadError } from './upload-error.js';
import { UPLOAD_ERRORS, type UploadErrorKind, errorKindOf } from './upload-rules.js';
import { useUploadCalls } from './use-upload-calls.js';

export type UploadStep =
  | { name: 'idle' }
  | { name: 'checking' }
  | { name: 'uploading'; progress: SendProgress }
  | { name: 'submitting' }
  | { name: 'cancelled' }
  | { name: 'info'; tourId: string }
  | { name: 'error'; kind: UploadErrorKind; detail: string };

export function useUpload() {
  const calls = useUploadCalls();
  const input = useRef<HTMLInputElement>(null);
  const file = useRef<File | null>(null);
  const [step, setStep] = useState<UploadStep>({ name: 'idle' });
  // The running upload: the dialog's close button, Escape or Cancel aborts it, and nothing is submitted.
  const running = useRef<AbortController | null>(null);

  const fail = (kind: UploadErrorKind, detail = '') => setStep({ name: 'error', kind, detail });

  const cancel = () => {
    running.current?.abort();
    running.current = null;
    setStep({ name: 'cancelled' });
  };

  const run = async (f: File) => {
    setStep({ name: 'checking' });
    // null: the browser cannot read this file; it is uploaded and the server's processing gives the verdict.
    const meta = await probeVideo(f);
    if (meta === NOT_A_VIDEO) return fail('unreadable', ERROR_TEXTS.videoUnreadable);
    if (meta) {
      const bad = checkVideoMeta(meta);
      if (bad) return fail(errorKindOf(bad.code), bad.message);
    }

    const controller = new AbortController();
    running.current = controller;
    setStep({
      name: 'uploading',
      progress: {
        phase: 'uploading',
        bytesUploaded: 0,
        bytesTotal: f.size,
        percent: 0,
        bytesPerSecond: null,
        secondsLeft: null,
        resuming: false,
      },
    });
    try {
      const { sendVideo } = await import('./send-video.js');
      const { key, converted } = await sendVideo({
        calls,
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
      const tourId = await calls.submit(key);
      setStep({ name: 'info', tourId });
      // The tour was made from the device's 1080p mezzanine: the original follows for the photos' full resolution.
      if (converted)
        void import('./original-follows.js').then(({ followWithOriginal }) =>
          followWithOriginal({ calls, file: f, tourId }),
        );
    } catch (e) {
      if (controller.signal.aborted) return;
      // One channel: every failure of the flow is an UploadError with a code and the user's words.
      const err = asUploadError(e);
      fail(errorKindOf(err.code), err.message);
    }
  };

  const pick = (f: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!f) return;
    file.current = f;
    void run(f);
  };

  /** The error dialog's action: the same file again, or (for its length, resolution or kind) the file picker. */
  const retry = () => {
    const err = step.name === 'error' ? UPLOAD_ERRORS[step.kind] : null;
    if (err?.pickNew || !file.current) {
      setStep({ name: 'idle' });
      input.current?.click();
    } else void run(file.current);
  };

  return {
    step,
    input,
    busy: step.name === 'checking' || step.name === 'uploading' || step.name === 'submitting',
    pick,
    cancel,
    retry,
    dismiss: () => setStep({ name: 'idle' }),
  };
}
