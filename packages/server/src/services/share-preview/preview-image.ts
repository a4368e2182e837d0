/**
 * The link preview picture (docs/embedding.md "Link previews"): a 1200x630 JPEG cut from the tour's poster (the frame
 * processing chose, or the cover the agent set), with faces blurred as in every picture of a tour, kept under
 * `tours/<id>/share/` and named in `tours.share_image_key`. Only a public tour's share page shows it.
 */
import { randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { blurFacesInImage } from '../../media/blur-faces.js';
import type { Services } from '../services.js';

/** The size link previews ask for (Open Graph's large card: 1.91:1). */
export const SHARE_IMAGE = { width: 1200, height: 630 } as const;

/** The preview picture of an image: cropped to 1200x630 around its centre, faces blurred, as a JPEG. */
async function previewJpeg(poster: Buffer, blurFaces = true): Promise<Buffer> {
  const framed = await sharp(poster)
    .rotate()
    .resize(SHARE_IMAGE.width, SHARE_IMAGE.height, { fit: 'cover', position: 'centre' })
    .removeAlpha()
    .jpeg({ quality: 85, mozjpeg: true })
    .toBuffer();
  if (!blurFaces) return framed;
  const blurred = await blurFacesInImage(framed);
  return blurred ? sharp(blurred).jpeg({ quality: 85, mozjpeg: true }).toBuffer() : framed;
}

/**
 * Makes (again) the tour's preview picture from its current poster; a tour without one (not processed yet) or deleted
 * keeps none. The previous picture is removed once the new one is named (the row changes first, then the file goes).
 */
export async function makeSharePreview(services: Services, tourId: string): Promise<string | null> {
  const tour = await services.db
    .selectFrom('tours')
    .select(['thumbnail_key', 'share_image_key', 'blur_faces', 'deleted_at'])
    .where('id', '=', tourId)
    .executeTakeFirst();
  if (!tour || tour.deleted_at || !tour.thumbnail_key) return null;
  const poster = await services.storage.get(tour.thumbnail_key);
  if (!poster) return null;
  const jpeg = await previewJpeg(await buffer(poster.stream), tour.blur_faces);
  const key = `tours/${tourId}/share/${randomUUID()}.jpg`;
  await services.storage.put(key, jpeg, 'image/jpeg');
  const named = await services.db
    .updateTable('tours')
    .set({ share_image_key: key })
    .where('id', '=', tourId)
    .where('deleted_at', 'is', null)
    .where('thumbnail_key', '=', tour.thumbnail_key)
    // The picture replaced is the one read above, so it is the one removed below: never another job's.
    .where((eb) =>
      tour.share_image_key ? eb('share_image_key', '=', tour.share_image_key) : eb('share_image_key', 'is', null),
    )
    .executeTakeFirst();
  if (!named.numUpdatedRows) {
    // The poster changed (or the tour went, or another job named a picture of it) meanwhile: the job queued by that
    // change makes the right picture.
    await services.storage.delete(key);
    return null;
  }
  if (tour.share_image_key && tour.share_image_key !== key)
    await services.storage
      .delete(tour.share_image_key)
      .catch((e) => services.log.warn(e, 'could not delete a replaced share preview'));
  return key;
}
