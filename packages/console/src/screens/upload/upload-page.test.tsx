import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { ERROR_TEXTS, NOTICES, VALIDATION } from '@roomwalk/shared';
import UploadPage from './upload-page.js';
import { readVideoMeta } from './read-video-meta.js';
import { renderRoute, stubFetch, validToken } from '../../test/helpers.js';
import { createSessionStore } from '../../session/session-store.js';

vi.mock('./read-video-meta.js', async (orig) => ({ ...(await orig<typeof import('./read-video-meta.js')>()), readVideoMeta: vi.fn() }));
const meta = vi.mocked(readVideoMeta);

/** A stand-in XMLHttpRequest the test drives: upload progress events, then a status. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: unknown) {
    this.body = body;
  }
  aborted = false;
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  finish(status: number, text = '') {
    this.status = status;
    this.responseText = text;
    this.onload?.();
  }
}

const presigned = (over: Record<string, unknown> = {}) => ({
  body: { data: { fileGetPreSignedUrl: { uploadURL: 'http://storage.test/put?sig=1', key: 'uploads/abc.mp4', headers: [{ key: 'Content-Type', value: 'video/mp4' }], error: null, message: null, ...over } } },
});

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
  FakeXhr.last = null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  meta.mockResolvedValue({ durationSeconds: 12, width: 1280, height: 720 });
});
afterEach(() => vi.unstubAllGlobals());

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
    [{ durationSeconds: 9.5, width: 1280, height: 720 }, ERROR_TEXTS.videoTooShortTitle, 'Upload a longer video', VALIDATION.videoTooShort],
    [{ durationSeconds: 601, width: 1280, height: 720 }, ERROR_TEXTS.videoTooLongTitle, 'Upload shorter video', VALIDATION.videoTooLong],
    [{ durationSeconds: 30, width: 1280, height: 700 }, ERROR_TEXTS.videoResolutionTitle, 'Upload higher resolution video', VALIDATION.videoResolutionLow],
    [{ durationSeconds: 30, width: 720, height: 1000 }, ERROR_TEXTS.videoResolutionTitle, 'Upload higher resolution video', VALIDATION.videoResolutionLow],
  ])('rejects %o in the browser before any upload', async (m, _title, action, detail) => {
    meta.mockResolvedValue(m);
    const api = stubFetch({});
    vi.stubGlobal('fetch', api.impl);
    renderUpload();
    pick();
    expect(await screen.findByText(action)).toBeInTheDocument();
    expect(screen.getByTestId('upload-error-detail')).toHaveTextContent(detail);
    expect(screen.getByText('Return to Tours')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
    expect(FakeXhr.last).toBeNull();
  });

  it("opens the general error dialog with 'No active license for company' when the URL is refused", async () => {
    vi.stubGlobal('fetch', stubFetch({ FileGetPreSignedUrl: () => presigned({ uploadURL: null, key: null, headers: [], error: 'NO_ACTIVE_LICENSE', message: 'x' }) }).impl);
    renderUpload();
    pick();
    expect(await screen.findByText(ERROR_TEXTS.noActiveLicense)).toBeInTheDocument();
    expect(screen.getByText('Retry')).toBeInTheDocument();
  });

  it('PUTs the file with the returned headers and a real progress bar, submits the key, then saves the Tour Info and goes to /', async () => {
    const api = stubFetch({
      FileGetPreSignedUrl: () => presigned(),
      FileSubmitPreSignedUpload: () => ({ body: { data: { fileSubmitPreSignedUpload: { bucketURL: 'b', tourId: 'tour_new' } } } }),
      TourSave: () => ({ body: { data: { tourSave: { __typename: 'Tour', id: 'tour_new', title: 'Flat', description: null, videoURL: null, listingLink: null } } } }),
    });
    vi.stubGlobal('fetch', api.impl);
    renderUpload();
    const file = pick('Walk.MOV');
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    const xhr = FakeXhr.last!;
    expect(xhr.method).toBe('PUT');
    expect(xhr.url).toBe('http://storage.test/put?sig=1');
    expect(xhr.headers).toEqual({ 'Content-Type': 'video/mp4' });
    expect(xhr.body).toBe(file);
    const getUrl = api.calls.find((c) => (c.body as { operationName?: string }).operationName === 'FileGetPreSignedUrl')!;
    expect((getUrl.body as { variables: unknown }).variables).toEqual({ input: 'mov' });
    expect(screen.getByText('Please wait while your video is uploading')).toBeInTheDocument();
    act(() => xhr.progress(512, 2048));
    expect(screen.getByTestId('upload-progress')).toHaveTextContent('25%');
    act(() => xhr.progress(1536, 2048));
    expect(screen.getByTestId('upload-progress')).toHaveTextContent('75%');
    act(() => xhr.finish(200));
    expect(await screen.findByText('Done')).toBeInTheDocument();
    const submit = api.calls.find((c) => (c.body as { operationName?: string }).operationName === 'FileSubmitPreSignedUpload')!;
    expect((submit.body as { variables: unknown }).variables).toEqual({ input: { key: 'uploads/abc.mp4' } });

    fireEvent.click(screen.getByText('Done'));
    expect(await screen.findByText(VALIDATION.titleRequired)).toBeInTheDocument();
    fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'Flat' } });
    fireEvent.input(screen.getByLabelText('Listing Link'), { target: { value: 'https://example.com/l/1' } });
    fireEvent.click(screen.getByText('Done'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(await screen.findByText(NOTICES.successful)).toBeInTheDocument();
    const save = api.calls.find((c) => (c.body as { operationName?: string }).operationName === 'TourSave')!;
    expect((save.body as { variables: unknown }).variables).toEqual({ input: { id: 'tour_new', title: 'Flat', listingLink: 'https://example.com/l/1', description: null } });
  });

  it('treats anything but 200 from storage as a failed upload and retries the same file', async () => {
    vi.stubGlobal('fetch', stubFetch({ FileGetPreSignedUrl: () => presigned() }).impl);
    renderUpload();
    pick();
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    const first = FakeXhr.last!;
    act(() => first.finish(403, JSON.stringify({ message: 'This upload link has expired. Please try again.' })));
    expect(await screen.findByText('This upload link has expired. Please try again.')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Retry'));
    await waitFor(() => expect(FakeXhr.last).not.toBe(first));
    expect(FakeXhr.last!.body).toBe(first.body);
  });

  it("the uploading dialog's Cancel upload (and its close button) cancels the upload: the PUT is aborted and nothing is submitted", async () => {
    const api = stubFetch({ FileGetPreSignedUrl: () => presigned() });
    vi.stubGlobal('fetch', api.impl);
    renderUpload();
    pick();
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    act(() => FakeXhr.last!.progress(512, 2048));
    const dialog = screen.getByText('Please wait while your video is uploading').closest('sl-dialog')!;
    // Its close button is shown (not a persistent dialog; the button and Escape call the same cancel as this one,
    // through sl-request-close, which @lit/react does not bind under Node: the e2e journey presses the X itself).
    expect(dialog).not.toHaveClass('dialog-persistent');
    fireEvent.click(screen.getByText('Cancel upload'));
    expect(FakeXhr.last!.aborted).toBe(true);
    expect(await screen.findByText('Upload cancelled. Nothing was saved.')).toBeInTheDocument();
    expect(screen.queryByText('Please wait while your video is uploading')).toBeNull();
    expect(screen.queryByText(ERROR_TEXTS.uploadFailedTitle)).toBeNull();
    expect(api.calls.some((c) => (c.body as { operationName?: string }).operationName === 'FileSubmitPreSignedUpload')).toBe(false);
  });

  it('once the file is stored and the tour is being created, the dialog has no close button and stays open', async () => {
    let answer: (v: unknown) => void = () => undefined;
    const pending = new Promise((r) => (answer = r));
    const api = stubFetch({ FileGetPreSignedUrl: () => presigned() });
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(init?.body ?? '').includes('FileSubmitPreSignedUpload')) {
        await pending;
        return new Response(JSON.stringify({ data: { fileSubmitPreSignedUpload: { bucketURL: 'b', tourId: 'tour_new' } } }), { headers: { 'Content-Type': 'application/json' } });
      }
      return api.impl(input, init);
    });
    renderUpload();
    pick();
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    act(() => FakeXhr.last!.finish(200));
    const dialog = screen.getByText('Please wait while your video is uploading').closest('sl-dialog')!;
    await waitFor(() => expect(dialog).toHaveClass('dialog-persistent'));
    expect(screen.queryByText('Cancel upload')).toBeNull();
    answer(null);
    expect(await screen.findByText('Done')).toBeInTheDocument();
  });

  it("'Return to Tours' goes to /", async () => {
    meta.mockResolvedValue({ durationSeconds: 3, width: 1280, height: 720 });
    renderUpload();
    pick();
    fireEvent.click(await screen.findByText('Return to Tours'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });
});
