/** Privacy for professional photos: blurs faces in a shot image when the tour's `blur_faces` switch is on. */
import type { Services } from '../services.js';
import { blurFacesInImage } from '../../media/blur-faces.js';

/** The image with its faces blurred (JPEG) when the tour wants it, else the image as given. */
export async function blurShotFaces(services: Services, tourId: string, image: Buffer): Promise<Buffer> {
  const tour = await services.db.selectFrom('tours').select(['blur_faces']).where('id', '=', tourId).executeTakeFirst();
  if (tour && !tour.blur_faces) return image;
  return (await blurFacesInImage(image)) ?? image;
}
