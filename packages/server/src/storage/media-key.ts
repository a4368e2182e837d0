/**
 * What a stored file's key is, and so who may read it (docs/access-and-privacy.md "Stored files"): the one rule /media
 * applies on every store (http/media.ts). A key is read from the request's path once, at its one spelling, and only
 * then classified: deciding on the raw string and letting the store resolve it (path.join, an S3 object named
 * `tours/./…`) is how a protected tour's files leaked through `/./` and `%2e`.
 *
 * Every key this server makes is lower-case ASCII letters, digits, `_`, `-`, `.` and `/`, all characters a URL never
 * needs to escape, so a key has one spelling in a path: any escape (`%2e`, `%2f`, `%5c`, `%252e`, `%74`), a dot or empty
 * segment, a backslash, a trailing dot, an upper-case letter or a control character names nothing. Nothing is
 * normalised into a key: a path is the key or it is refused.
 */
import path from 'node:path';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** One segment of a key: starts with a letter or digit, never ends with a dot (Windows and some stores drop it). */
const SEGMENT = /^[a-z0-9][a-z0-9_.-]*$/;
const MAX_KEY = 300;

/** Who may read a stored file. */
export type MediaRule =
  /** Anyone, cached by anyone: profile pictures and company logos (shown on public tours and in mails). */
  | { read: 'public'; key: string }
  /**
   * The tour's rule: public while the tour is public and the file is not past its lead gate, else only with a live
   * signature of this key at the tour's access version (services/tour-access/grants.ts).
   */
  | { read: 'tour'; key: string; tourId: string; immutable: boolean }
  /**
   * A signed-in member of the company it belongs to, never cached by anyone else: a tour's original (photo source), of
   * the tour's company; a source upload (`Tour.videoURL`), of the uploader's company.
   */
  | { read: 'members'; key: string; of: { tourId: string } | { upload: true } }
  /** Never over HTTP: multipart and S3 staging, exports, the old photo-source key, anything unknown. */
  | { read: 'never' };

const NEVER: MediaRule = { read: 'never' };

/**
 * Files of a tour that follow the tour's access: clips of each rendition and the poster of a processing attempt
 * (`v<n>/`, never rewritten), chosen thumbnails (`thumbs/`, a new key each), photos (`shots/`), reels (`reels/`) and
 * any other derived picture the tour gets later (a link preview); each is made from the tour with faces blurred.
 */
const TOUR_FILE = new RegExp(`^tours/(${UUID})/(?!originals/|photo-source)(v\\d+/|thumbs/)?.`);
/** The original that followed a converted upload (services/photo-source.ts): a random name nobody can guess. */
const ORIGINAL = new RegExp(`^tours/(${UUID})/originals/[0-9a-f]{32}\\.[a-z0-9]{1,5}$`);
/** A source upload (services/uploads.ts): unblurred, so never public. */
const UPLOAD = new RegExp(`^uploads/${UUID}\\.[a-z0-9]{1,5}$`);
/** Pictures people put on their profile and company: public by design (and by unguessable name). */
const PUBLIC_PICTURE = new RegExp(`^(profiles/${UUID}/[0-9a-f]+|companies/${UUID}/logo-[0-9a-f]+)\\.(jpg|png)$`);

/** Whether `key` is a key at its one spelling (the grammar every key we make follows). */
export function isCanonicalKey(key: string): boolean {
  if (key.length === 0 || key.length > MAX_KEY) return false;
  const segments = key.split('/');
  return (
    segments.every((s) => SEGMENT.test(s) && !s.endsWith('.')) &&
    // Redundant with the segment grammar (no '.', '..' or empty segment passes it), kept as the normaliser's word.
    path.posix.normalize(key) === key
  );
}

/**
 * The key a `/media/` path names, or null: `rawPath` is the path after `/media/` exactly as the request sent it (before
 * any decoding). It is decoded once, and must then be a canonical key that escapes to exactly `rawPath` again.
 */
export function keyOfPath(rawPath: string): string | null {
  if (rawPath.length > MAX_KEY * 3) return null;
  let key: string;
  try {
    key = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  // A '%' left after one decoding is double encoding; the grammar refuses it, backslashes and control characters.
  if (!isCanonicalKey(key)) return null;
  return key.split('/').map(encodeURIComponent).join('/') === rawPath ? key : null;
}

/** Who may read the file at a canonical key (see MediaRule). */
export function mediaRuleOf(key: string): MediaRule {
  if (!isCanonicalKey(key)) return NEVER;
  const original = ORIGINAL.exec(key);
  if (original) return { read: 'members', key, of: { tourId: original[1]! } };
  if (UPLOAD.test(key)) return { read: 'members', key, of: { upload: true } };
  const tour = TOUR_FILE.exec(key);
  if (tour) {
    // Sidecars of the local store (`.meta`, a `.part` being written) are not files of the tour.
    if (key.endsWith('.meta') || key.endsWith('.part')) return NEVER;
    return { read: 'tour', key, tourId: tour[1]!, immutable: tour[2] !== undefined };
  }
  if (PUBLIC_PICTURE.test(key)) return { read: 'public', key };
  return NEVER;
}
