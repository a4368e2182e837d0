/**
 * After a tour made from the device's mezzanine (docs/upload-conversion.md): the original goes up in the background,
 * through the same resumable upload, and is attached to the tour so that the professional photos are taken from it at
 * full resolution, as they are for a tour made from the original. It starts only once the tour exists, so it never
 * delays the tour; it runs outside the upload page (module scope), so moving around the console does not stop it.
 * A tab closed before it ends leaves the photos reading the 1080p mezzanine (its unfinished upload is swept, or resumed
 * if the same file is uploaded again): while it goes up, every screen says so with its progress and the tab asks before
 * closing (original-follows-state.ts, original-follows-notice.tsx). The details go to the debug log.
 */
import { uploadVideo } from './multipart-upload.js';
import { asUploadError } from './upload-error.js';
import type { UploadCalls } from './upload-calls.js';
import { originalFollows } from './original-follows-state.js';

const debugLog = (line: string) => console.debug(`[upload] ${line}`);

/** What the original's upload reads of the Network Information API (Chromium on Android; absent elsewhere). */
interface ConnectionInfo {
  readonly type?: string;
  readonly saveData?: boolean;
  addEventListener?(type: 'change', listener: () => void): void;
  removeEventListener?(type: 'change', listener: () => void): void;
}

/** The browser says the connection is metered: mobile data, or Data Saver on. Unknown counts as not metered. */
const metered = (c: ConnectionInfo | undefined): boolean => !!c && (c.saveData === true || c.type === 'cellular');

const browserConnection = (): ConnectionInfo | undefined =>
  typeof navigator === 'undefined' ? undefined : (navigator as Navigator & { connection?: ConnectionInfo }).connection;

/**
 * Resolves once the connection is no longer metered, or the agent chose to send now (the notice's button); at once
 * when it is not metered (or the browser does not say). The original is 1.12x the bytes of the tour's upload: on a
 * mobile data plan it waits for Wi-Fi.
 */
function untilUnmetered(c: ConnectionInfo | undefined, log: (line: string) => void): Promise<void> {
  if (!metered(c)) return Promise.resolve();
  log('original follows: on mobile data, waiting for Wi-Fi (or the agent sends it now)');
  originalFollows.set({ phase: 'waiting' });
  return new Promise((resolve) => {
    const done = () => {
      c?.removeEventListener?.('change', check);
      stop();
      resolve();
    };
    const check = () => {
      if (!metered(c)) done();
    };
    const stop = originalFollows.onSendNow(done);
    c?.addEventListener?.('change', check);
  });
}

export async function followWithOriginal({
  calls,
  file,
  tourId,
  log = debugLog,
  connection = browserConnection(),
}: {
  calls: UploadCalls;
  file: File;
  tourId: string;
  log?: (line: string) => void;
  /** The browser's connection (navigator.connection); tests pass their own. */
  connection?: ConnectionInfo | undefined;
}): Promise<boolean> {
  await untilUnmetered(connection, log);
  log(`original follows: ${file.size} bytes in the background, for the photos`);
  originalFollows.set({ phase: 'sending', percent: 0 });
  try {
    const { key } = await uploadVideo({
      calls,
      file,
      signal: new AbortController().signal,
      onProgress: (p) => {
        const now = originalFollows.get();
        if (now?.phase === 'sending' && now.percent !== p.percent)
          originalFollows.set({ phase: 'sending', percent: p.percent });
      },
      photoSourceFor: tourId,
    });
    await calls.attachPhotoSource({ tourId, key });
    log('original follows: uploaded and attached; the photos are taken from it');
    originalFollows.set({ phase: 'done' });
    return true;
  } catch (e) {
    const reason = asUploadError(e).message;
    log(`original follows: given up (${reason}); the photos are taken from the mezzanine`);
    originalFollows.set({ phase: 'failed', reason });
    return false;
  }
}
