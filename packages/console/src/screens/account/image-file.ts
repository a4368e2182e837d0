/** The logo and profile picture pickers: which files they take, checked before anything is sent. */
import { ERROR_TEXTS } from '@roomwalk/shared';

/** What the file inputs offer: the formats the server decodes. */
export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp,.png,.jpg,.jpeg,.webp';

/** Why this file cannot be a logo or picture, or null: by its type, else (no type given) by its name. */
export function imageFileProblem(file: { name: string; type: string }): string | null {
  const ok = file.type ? /^image\/(png|jpeg|webp)$/i.test(file.type) : /\.(png|jpe?g|webp)$/i.test(file.name);
  return ok ? null : ERROR_TEXTS.notAnImage;
}
