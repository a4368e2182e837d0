/**
 * The original following a converted tour: uploaded through the resumable upload with no signal of the page's, then
 * attached to the tour for the photos; a failure is written to the debug log only (the tour is already made).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UploadCalls } from './upload-calls.js';
import { followWithOriginal } from './original-follows.js';
import { uploadVideo } from './multipart-upload.js';
import { UploadError } from './upload-error.js';
import { originalFollows, type OriginalFollowsState } from './original-follows-state.js';

vi.mock('./multipart-upload.js', () => ({ uploadVideo: vi.fn() }));
const upload = vi.mocked(uploadVideo);
const original = new File([new Uint8Array(4096)], 'IMG_0003.MOV', { type: 'video/quicktime' });

let attached: unknown[];
const calls = {
  attachPhotoSource: async (input: unknown) => void attached.push({ input }),
} as unknown as UploadCalls;

beforeEach(() => {
  attached = [];
  upload.mockReset();
  originalFollows.set(null);
});

/** Whether leaving the page now is questioned (the tab's beforeunload guard). */
function leavingIsQuestioned(): boolean {
  const e = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(e);
  return e.defaultPrevented;
}

describe('followWithOriginal', () => {
  it('uploads the original and attaches it to the tour', async () => {
    upload.mockResolvedValue({ key: 'uploads/original.mov' });
    const log: string[] = [];
    await expect(
      followWithOriginal({ calls, file: original, tourId: 'tour_1', log: (l) => log.push(l) }),
    ).resolves.toBe(true);
    expect(upload.mock.calls[0]![0]).toMatchObject({ file: original, photoSourceFor: 'tour_1' });
    expect(attached).toEqual([{ input: { tourId: 'tour_1', key: 'uploads/original.mov' } }]);
    expect(log).toEqual([
      'original follows: 4096 bytes in the background, for the photos',
      'original follows: uploaded and attached; the photos are taken from it',
    ]);
  });

  it('gives up quietly when the upload fails: nothing attached, the reason in the debug log', async () => {
    upload.mockRejectedValue(new UploadError('NETWORK', 'The connection was lost during the upload.'));
    const log: string[] = [];
    await expect(
      followWithOriginal({ calls, file: original, tourId: 'tour_1', log: (l) => log.push(l) }),
    ).resolves.toBe(false);
    expect(attached).toEqual([]);
    expect(log.at(-1)).toBe(
      'original follows: given up (The connection was lost during the upload.); the photos are taken from the mezzanine',
    );
  });

  it('tells every screen how far it is, and questions closing the tab until it is sent', async () => {
    const seen: OriginalFollowsState[] = [];
    const stop = originalFollows.subscribe(() => seen.push(originalFollows.get()));
    let finish = (_: { key: string }) => {};
    let questionedWhileSending = false;
    upload.mockImplementation(async ({ onProgress }) => {
      for (const percent of [0, 40, 40, 80]) onProgress({ percent } as Parameters<typeof onProgress>[0]);
      questionedWhileSending = leavingIsQuestioned();
      return new Promise((resolve) => (finish = resolve));
    });
    expect(leavingIsQuestioned()).toBe(false);
    const done = followWithOriginal({ calls, file: original, tourId: 'tour_1', log: () => undefined });
    await vi.waitFor(() => expect(questionedWhileSending).toBe(true));
    finish({ key: 'uploads/original.mov' });
    await done;
    stop();
    expect(seen).toEqual([
      { phase: 'sending', percent: 0 },
      { phase: 'sending', percent: 40 },
      { phase: 'sending', percent: 80 },
      { phase: 'done' },
    ]);
    expect(leavingIsQuestioned()).toBe(false);
  });

  it('says so when the original could not be sent, and no longer questions closing the tab', async () => {
    upload.mockRejectedValue(new UploadError('NETWORK', 'The connection was lost during the upload.'));
    await followWithOriginal({ calls, file: original, tourId: 'tour_1', log: () => undefined });
    expect(originalFollows.get()).toEqual({ phase: 'failed', reason: 'The connection was lost during the upload.' });
    expect(leavingIsQuestioned()).toBe(false);
  });
});

describe('followWithOriginal on mobile data', () => {
  /** A connection as Chromium on Android reports it, whose type the test changes. */
  function connection(type: string) {
    const listeners = new Set<() => void>();
    return {
      type,
      saveData: false,
      addEventListener: (_: 'change', l: () => void) => void listeners.add(l),
      removeEventListener: (_: 'change', l: () => void) => void listeners.delete(l),
      switchTo(next: string) {
        this.type = next;
        for (const l of listeners) l();
      },
    };
  }

  it('waits for Wi-Fi before sending the original (1.12x the upload), and says so', async () => {
    upload.mockResolvedValue({ key: 'uploads/original.mov' } as Awaited<ReturnType<typeof uploadVideo>>);
    const c = connection('cellular');
    const done = followWithOriginal({ calls, file: original, tourId: 'tour_1', log: () => undefined, connection: c });
    await vi.waitFor(() => expect(originalFollows.get()).toEqual({ phase: 'waiting' }));
    expect(upload).not.toHaveBeenCalled();
    // Waiting still questions closing the tab: the photos would lose the original.
    expect(leavingIsQuestioned()).toBe(true);
    c.switchTo('wifi');
    expect(await done).toBe(true);
    expect(upload).toHaveBeenCalledTimes(1);
    expect(originalFollows.get()).toEqual({ phase: 'done' });
  });

  it('sends over mobile data when the agent asks to', async () => {
    upload.mockResolvedValue({ key: 'uploads/original.mov' } as Awaited<ReturnType<typeof uploadVideo>>);
    const done = followWithOriginal({
      calls,
      file: original,
      tourId: 'tour_1',
      log: () => undefined,
      connection: connection('cellular'),
    });
    await vi.waitFor(() => expect(originalFollows.get()).toEqual({ phase: 'waiting' }));
    originalFollows.sendNow();
    expect(await done).toBe(true);
    expect(upload).toHaveBeenCalledTimes(1);
  });

  it('sends at once on Wi-Fi, and where the browser does not say', async () => {
    upload.mockResolvedValue({ key: 'uploads/original.mov' } as Awaited<ReturnType<typeof uploadVideo>>);
    expect(
      await followWithOriginal({
        calls,
        file: original,
        tourId: 'tour_1',
        log: () => undefined,
        connection: connection('wifi'),
      }),
    ).toBe(true);
    expect(
      await followWithOriginal({
        calls,
        file: original,
        tourId: 'tour_1',
        log: () => undefined,
        connection: undefined,
      }),
    ).toBe(true);
    expect(upload).toHaveBeenCalledTimes(2);
  });
});
