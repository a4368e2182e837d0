/** The logo and profile picture pickers: which files they take, checked before anything is sent. */
import { useState, type ChangeEvent } from 'react';
import { ERROR_TEXTS } from '@roomwalk/shared';

/** What the file inputs offer: the formats the server decodes. */
export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp,.png,.jpg,.jpeg,.webp';

/** Why this file cannot be a logo or picture, or null: by its type, else (no type given) by its name. */
function imageFileProblem(file: { name: string; type: string }): string | null {
  const ok = file.type ? /^image\/(png|jpeg|webp)$/i.test(file.type) : /\.(png|jpe?g|webp)$/i.test(file.name);
  return ok ? null : ERROR_TEXTS.notAnImage;
}

/** A picker's chosen image: the file when it can be one, else null with the reason to show under the field. */
export function useImageFile() {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = e.target.files?.[0] ?? null;
    const why = chosen ? imageFileProblem(chosen) : null;
    setProblem(why);
    setFile(why ? null : chosen);
  };
  return { file, problem, onChange };
}
