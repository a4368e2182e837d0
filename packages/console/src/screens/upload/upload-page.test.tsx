import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { ERROR_TEXTS, NOTICES, VALIDATION } from '@roomwalk/shared';
import UploadPage from './upload-page.js';
import { probeVideo } from './read-video-meta.js';
import { uploadVideo, type UploadOptions, type UploadProgress } from './multipart-upload.js';
import { uploadRefusal } from './upload-error.js';
import { renderRoute, stubFetch, validToken } from '../../test/helpers.js';
import { createSessionStore } from '../../session/session-store.js';

vi.mock('./read-video-meta.js', async (orig) => ({
  ...(await orig<typeof import('./read-video-meta.js')>()),
  probeVideo: vi.fn(),
}));
vi.mock('./multipart-upload.js', async (orig) => ({
  ...(await orig<typeof import('./multipart-upload.js')>()),
  uploadVideo: vi.fn(),
}));
const meta = vi.mocked(probeVideo);
const upload = vi.mocked(uploadVideo);

/** The running upload, driven by the test: progress reports, then success (a key) or a failure. */
interface Running {
  options: UploadOptions;
  progress: (p: Partial<UploadProgress>) => void;
  finish: (key?: string) => void;
  fail: (e: Error) => void;
}
let last: Running | null = null;
function scriptUpload() {
  upload.mockImplementation(
    (options) =>
      new Promise((resolve, reject) => {
        last = {
          options,
          progress: (p) =>
            options.onProgress({
              bytesUploaded: 0,
              bytesTotal: options.file.size,
              percent: 0,
              bytesPerSecond: null,
              secondsLeft: null,
              resuming: false,
              ...p,
            }),
          finish: (key = 'uploads/abc.mp4') => resolve({ key }),
          fail: reject,
        };
        options.signal.addEventListener('abort', () => reject(new DOMException('Upload cancelled', 'AbortError')));
      }),
  );
}

function renderUpload() {
  const store = createSessionStore({ log: () => undefined });
  store.login(validToken(['free']), 'roomwalk');
  return renderRoute(<UploadPage />, { path: '/upload', route: '/upload', store });
}

const pick = (name = 'walk.mp4') => {
  const file = new File([new Uint8Array(2048)], name, { type: 'video/mp4' });
  fireEvent.change(screen.getByTestId('video-input'), { target: { files: [file] } });
  return file;
};

beforeEach(() => {
  last = null;
  scriptUpload();
  meta.mockResolvedValue({ durationSeconds: 12, width: 1280, height: 720, source: 'container' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  upload.mockReset();
});

describe('upload', () => {
  it('shows the tips carousel and a link to the terms', () => {
    renderUpload();
    expect(screen.getByText('Keep camera steady')).toBeInTheDocument();
    // Shoelace's icon buttons keep their label in shadow DOM, which jsdom does not render: the second one is Next.
    const next = () => document.querySelectorAll('.tips-controls sl-icon-button')[1]!;
    fireEvent.click(next());
    expect(screen.getByText('Plan route')).toBeInTheDocument();
    fireEvent.click(next());
    expect(screen.getByText('Widest lens')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Terms & Conditions' })).toHaveAttribute('href', '/terms');
  });

  it.each([
    [
      { durationSeconds: 9.5, width: 1280, height: 720 },
      ERROR_TEXTS.videoTooShortTitle,
      'Upload a longer video',
      VALIDATION.videoTooShort,
    ],
    [
      { durationSeconds: 601, width: 1280, height: 720 },
      ERROR_TEXTS.videoTooLongTitle,
      'Upload shorter video',
      VALIDATION.videoTooLong,
    ],
    [
      { durationSeconds: 30, width: 1280, height: 700 },
      ERROR_TEXTS.videoResolutionTitle,
      'Upload higher resolution video',
      VALIDATION.videoResolutionLow,
    ],
    [
      { durationSeconds: 30, width: 720, height: 1000 },
      ERROR_TEXTS.videoResolutionTitle,
      'Upload higher resolution video',
      VALIDATION.videoResolutionLow,
    ],
  ])('rejects %o in the browser before any upload', async (m, _title, action, detail) => {
    meta.mockResolvedValue({ ...m, source: 'container' });
    const api = stubFetch({});
    vi.stubGlobal('fetch', api.impl);
    renderUpload();
    pick();
    expect(await screen.findByText(action)).toBeInTheDocument();
    expect(screen.getByTestId('upload-error-detail')).toHaveTextContent(detail);
    expect(screen.getByText('Return to Tours')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
    expect(upload).not.toHaveBeenCalled();
  });

  it('uploads a file the browser cannot read at all: the server decides', async () => {
    meta.mockResolvedValue(null);
    vi.stubGlobal('fetch', stubFetch({}).impl);
    renderUpload();
    pick('walk.mkv');
    await waitFor(() => expect(last).not.toBeNull());
    expect(last!.options.file.name).toBe('walk.mkv');
  });

  it("opens the general error dialog with 'No active license for company' when the upload is refused", async () => {
    upload.mockRejectedValue(uploadRefusal('NO_ACTIVE_LICENSE', 'x'));
    vi.stubGlobal('fetch', stubFetch({}).impl);
    renderUpload();
    pick();
    expect(await screen.findByText(ERROR_TEXTS.noActiveLicense)).toBeInTheDocument();
    expect(screen.getByText('Retry')).toBeInTheDocument();
  });

  it('shows percentage, speed and time left, then Resuming… after a drop; submits the key; saves the Tour Info and goes to /', async () => {
    const api = stubFetch({
      FileSubmitPreSignedUpload: () => ({
        body: { data: { fileSubmitPreSignedUpload: { bucketURL: 'b', tourId: 'tour_new' } } },
      }),
      TourSave: () => ({
        body: {
          data: {
            tourSave: {
              __typename: 'Tour',
              id: 'tour_new',
              title: 'Flat',
              description: null,
              videoURL: null,
              listingLink: null,
            },
          },
        },
      }),
    });
    vi.stubGlobal('fetch', api.impl);
    renderUpload();
    const file = pick('Walk.MOV');
    await waitFor(() => expect(last).not.toBeNull());
    expect(last!.options.file).toBe(file);
    expect(screen.getByText('Please wait while your video is uploading')).toBeInTheDocument();
    act(() => last!.progress({ bytesUploaded: 512, percent: 25 }));
    expect(screen.getByTestId('upload-progress')).toHaveTextContent('25%');
    expect(screen.getByTestId('upload-progress-line')).toHaveTextContent('25% · Measuring speed…');
    act(() => last!.progress({ bytesUploaded: 1536, percent: 75, bytesPerSecond: 3_100_000, secondsLeft: 130 }));
    expect(screen.getByTestId('upload-progress')).toHaveTextContent('75%');
    expect(screen.getByTestId('upload-progress-line')).toHaveTextContent('75% · 3.1 MB/s · about 2 min left');
    act(() => last!.progress({ bytesUploaded: 1536, percent: 75, resuming: true }));
    expect(screen.getByTestId('upload-progress-line')).toHaveTextContent('75% · Resuming…');
    act(() => last!.finish('uploads/abc.mov'));
    expect(await screen.findByText('Done')).toBeInTheDocument();
    const submit = api.calls.find(
      (c) => (c.body as { operationName?: string }).operationName === 'FileSubmitPreSignedUpload',
    )!;
    expect((submit.body as { variables: unknown }).variables).toEqual({ input: { key: 'uploads/abc.mov' } });

    fireEvent.click(screen.getByText('Done'));
    expect(await screen.findByText(VALIDATION.titleRequired)).toBeInTheDocument();
    fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'Flat' } });
    fireEvent.input(screen.getByLabelText('Listing Link'), { target: { value: 'https://example.com/l/1' } });
    fireEvent.click(screen.getByText('Done'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(await screen.findByText(NOTICES.successful)).toBeInTheDocument();
    const save = api.calls.find((c) => (c.body as { operationName?: string }).operationName === 'TourSave')!;
    expect((save.body as { variables: unknown }).variables).toEqual({
      input: { id: 'tour_new', title: 'Flat', listingLink: 'https://example.com/l/1', description: null },
    });
  });

  it('shows a failed upload in the general error dialog and Retry uploads the same file again (the server resumes it)', async () => {
    vi.stubGlobal('fetch', stubFetch({}).impl);
    renderUpload();
    const file = pick();
    await waitFor(() => expect(last).not.toBeNull());
    const first = last!;
    act(() => first.fail(new Error('The connection was lost during the upload.')));
    expect(await screen.findByText('The connection was lost during the upload.')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Retry'));
    await waitFor(() => expect(last).not.toBe(first));
    expect(last!.options.file).toBe(file);
  });

  it("the uploading dialog's Cancel upload (and its close button) cancels the upload: aborted and nothing is submitted", async () => {
    const api = stubFetch({});
    vi.stubGlobal('fetch', api.impl);
    renderUpload();
    pick();
    await waitFor(() => expect(last).not.toBeNull());
    act(() => last!.progress({ bytesUploaded: 512, percent: 25 }));
    const dialog = screen.getByText('Please wait while your video is uploading').closest('sl-dialog')!;
    // Its close button is shown (not a persistent dialog; the button and Escape call the same cancel as this one,
    // through sl-request-close, which @lit/react does not bind under Node: the e2e journey presses the X itself).
    expect(dialog).not.toHaveClass('dialog-persistent');
    fireEvent.click(screen.getByText('Cancel upload'));
    expect(last!.options.signal.aborted).toBe(true);
    expect(await screen.findByText('Upload cancelled. Nothing was saved.')).toBeInTheDocument();
    expect(screen.queryByText('Please wait while your video is uploading')).toBeNull();
    expect(screen.queryByText(ERROR_TEXTS.uploadFailedTitle)).toBeNull();
    expect(
      api.calls.some((c) => (c.body as { operationName?: string }).operationName === 'FileSubmitPreSignedUpload'),
    ).toBe(false);
  });

  it('once the file is stored and the tour is being created, the dialog has no close button and stays open', async () => {
    let answer: (v: unknown) => void = () => undefined;
    const pending = new Promise((r) => (answer = r));
    const api = stubFetch({});
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(init?.body ?? '').includes('FileSubmitPreSignedUpload')) {
        await pending;
        return new Response(
          JSON.stringify({ data: { fileSubmitPreSignedUpload: { bucketURL: 'b', tourId: 'tour_new' } } }),
          { headers: { 'Content-Type': 'application/json' } },
        );
      }
      return api.impl(input, init);
    });
    renderUpload();
    pick();
    await waitFor(() => expect(last).not.toBeNull());
    act(() => last!.finish());
    const dialog = await screen
      .findByText('Please wait while your video is uploading')
      .then((el) => el.closest('sl-dialog')!);
    await waitFor(() => expect(dialog).toHaveClass('dialog-persistent'));
    expect(screen.queryByText('Cancel upload')).toBeNull();
    answer(null);
    expect(await screen.findByText('Done')).toBeInTheDocument();
  });

  it("'Return to Tours' goes to /", async () => {
    meta.mockResolvedValue({ durationSeconds: 3, width: 1280, height: 720, source: 'container' });
    renderUpload();
    pick();
    fireEvent.click(await screen.findByText('Return to Tours'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });
});
