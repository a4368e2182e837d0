/**
 * After a tour made from the device's mezzanine (docs/upload-conversion.md): the original goes up in the background,
 * through the same resumable upload, and is attached to the tour so that the professional photos are taken from it at
 * full resolution, as they are for a tour made from the original. It starts only once the tour exists, so it never
 * delays the tour; it runs outside the upload page (module scope), so moving around the console does not stop it.
 * A tab closed before it ends leaves the photos reading the 1080p mezzanine (its unfinished upload is swept, or resumed
 * if the same file is uploaded again). Everything it does goes to the debug log only.
 */
import type { Client } from 'urql';
import { uploadVideo } from './multipart-upload.js';
import { TourPhotoSourceAttachMutation } from './upload-operations.js';
import { asUploadError, uploadErrorOf } from './upload-error.js';

const debugLog = (line: string) => console.debug(`[upload] ${line}`);

export async function followWithOriginal({
  client,
  file,
  tourId,
  log = debugLog,
}: {
  client: Client;
  file: File;
  tourId: string;
  log?: (line: string) => void;
}): Promise<boolean> {
  log(`original follows: ${file.size} bytes in the background, for the photos`);
  try {
    const { key } = await uploadVideo({
      client,
      file,
      signal: new AbortController().signal,
      onProgress: () => undefined,
      photoSourceFor: tourId,
    });
    const r = await client.mutation(TourPhotoSourceAttachMutation, { input: { tourId, key } }).toPromise();
    if (r.error || !r.data?.tourPhotoSourceAttach.success) throw uploadErrorOf(r.error);
    log('original follows: uploaded and attached; the photos are taken from it');
    return true;
  } catch (e) {
    log(`original follows: given up (${asUploadError(e).message}); the photos are taken from the mezzanine`);
    return false;
  }
}
