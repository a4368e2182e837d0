/** Profile and company: the caller's own profile and the company's details, logo and accent colour. */
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import {
  ERROR_CODES,
  ERROR_TEXTS,
  VALIDATION,
  BRANDING_TEXTS,
  accentColorProblem,
  companySchema,
  formatContactNumber,
  isBasicOrHigher,
  profileSchema,
} from '@roomwalk/shared';
import type { ProfileRow } from '../db/types.js';
import type { AuthInfo, FileUploadValue } from '../core/auth.js';
import { AppError } from '../core/errors.js';
import { readFileUpload } from '../core/file-upload.js';
import { parseInput } from './accounts.js';
import type { Services } from './services.js';

// ---- Images ------------------------------------------------------------------------------------------------

/** Decoded images larger than this are refused before any pixel is processed (a decompression bomb guard). */
const IMAGE_MAX_INPUT_PIXELS = 40_000_000;
export const IMAGE_MAX_BYTES = 15 * 1024 * 1024;

/** The Upload scalar hands over graphql-upload's Upload instance (file promise in `.promise`) or the promise itself. */
async function resolveUpload(upload: unknown): Promise<FileUploadValue> {
  const value = (await (upload as { promise?: Promise<FileUploadValue> } | null)?.promise) ?? (await upload);
  if (!value || typeof (value as FileUploadValue).createReadStream !== 'function')
    throw new AppError(ERROR_CODES.UPLOAD_INVALID, VALIDATION.noFileSelected);
  return value as FileUploadValue;
}

async function readUpload(upload: Promise<FileUploadValue> | FileUploadValue): Promise<Buffer> {
  const file = await resolveUpload(upload);
  // Refuses over IMAGE_MAX_BYTES (the multipart limit sits one byte above, so a larger file is never silently cut).
  return readFileUpload(
    file,
    IMAGE_MAX_BYTES,
    () => new AppError(ERROR_CODES.UPLOAD_INVALID, 'The image is too large.'),
  );
}

/** Decodes any image sharp reads, bounded in pixels, and re-encodes it, so nothing the user sent is served as is. */
async function processImage(
  upload: Promise<FileUploadValue> | FileUploadValue,
  box: number,
  format: 'jpeg' | 'png',
): Promise<{ data: Buffer; contentType: string; ext: string }> {
  const input = await readUpload(upload);
  try {
    const pipeline = sharp(input, { limitInputPixels: IMAGE_MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize(box, box, { fit: 'inside', withoutEnlargement: true });
    const data =
      format === 'png'
        ? await pipeline.png().toBuffer()
        : await pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 85, mozjpeg: true }).toBuffer();
    return { data, contentType: `image/${format}`, ext: format === 'png' ? 'png' : 'jpg' };
  } catch (err) {
    // sharp names a pixel bomb by its limit; anything else it cannot decode is no image (a PDF, a renamed file).
    const tooLarge = /pixel limit/i.test(String((err as Error)?.message));
    throw new AppError(
      ERROR_CODES.UPLOAD_INVALID,
      tooLarge
        ? `This image is too large: use one of at most ${IMAGE_MAX_INPUT_PIXELS / 1_000_000} megapixels.`
        : ERROR_TEXTS.notAnImage,
    );
  }
}

/**
 * Stores a processed image, runs the database change, and removes whichever file lost: new on failure, old on success.
 */
async function replaceImage<T>(
  services: Services,
  key: string,
  image: { data: Buffer; contentType: string },
  oldKey: string | null,
  commit: () => Promise<T>,
): Promise<T> {
  await services.storage.put(key, image.data, image.contentType);
  let result: T;
  try {
    result = await commit();
  } catch (err) {
    await services.storage.delete(key).catch(() => undefined);
    throw err;
  }
  if (oldKey && oldKey !== key)
    await services.storage.delete(oldKey).catch((e) => services.log.warn(e, 'could not delete a replaced image'));
  return result;
}

// ---- Profile and company ------------------------------------------------------------------------------------

export interface ProfileSaveInput {
  name: unknown;
  surname: unknown;
  contactNumber: unknown;
  profileImage?: Promise<FileUploadValue> | null | undefined;
}

/**
 * userSave: the caller's own profile (created when missing), contact number as '+{code} {national}', optional image.
 */
export async function saveProfile(
  services: Services,
  auth: AuthInfo,
  input: ProfileSaveInput,
): Promise<ProfileRow & { email: string; company_id: string }> {
  const data = parseInput(profileSchema, {
    name: input.name,
    surname: input.surname,
    contactNumber: input.contactNumber,
  });
  const contactNumber = formatContactNumber(data.contactNumber);
  if (!contactNumber)
    throw new AppError(ERROR_CODES.BAD_USER_INPUT, VALIDATION.contactNumberUnparsable, {
      fields: { contactNumber: VALIDATION.contactNumberUnparsable },
    });
  const user = await services.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', auth.userId)
    .executeTakeFirstOrThrow();
  const existing = await services.db
    .selectFrom('user_profiles')
    .selectAll()
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  const write = (imageKey: string | null | undefined) =>
    services.db.transaction().execute(async (trx) => {
      const values = {
        name: data.name,
        surname: data.surname,
        contact_number: contactNumber,
        ...(imageKey !== undefined ? { profile_image_key: imageKey } : {}),
      };
      const row = await trx
        .insertInto('user_profiles')
        .values({ user_id: user.id, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .returningAll()
        .executeTakeFirstOrThrow();
      return { ...row, email: user.username, company_id: user.company_id };
    });
  if (!input.profileImage) return write(undefined);
  const image = await processImage(input.profileImage, 512, 'jpeg');
  const key = `profiles/${user.id}/${randomBytes(12).toString('hex')}.${image.ext}`;
  return replaceImage(services, key, image, existing?.profile_image_key ?? null, () => write(key));
}

export interface CompanySaveValues {
  countryCode?: unknown;
  name: unknown;
  address?: unknown;
  vatNo?: unknown;
  logoImage?: Promise<FileUploadValue> | null | undefined;
  /** '#rrggbb'; '' clears; omitted keeps. */
  accentColor?: unknown;
}

/** companySave: company admins only; the logo only on Basic or higher. Omitted fields keep their value, '' clears. */
export async function saveCompany(services: Services, auth: AuthInfo, input: CompanySaveValues) {
  if (!auth.isCompanyAdmin && !auth.isSuperAdmin) throw new AppError(ERROR_CODES.FORBIDDEN, ERROR_TEXTS.forbidden);
  const data = parseInput(companySchema, {
    name: input.name,
    address: input.address,
    vatNo: input.vatNo,
    countryCode: input.countryCode || undefined,
  });
  if (input.logoImage && !isBasicOrHigher(auth.roles))
    throw new AppError(ERROR_CODES.FORBIDDEN, VALIDATION.logoPlanHint);
  const accent = typeof input.accentColor === 'string' ? input.accentColor.trim() : undefined;
  if (accent) {
    const problem = accentColorProblem(accent);
    if (problem) throw new AppError(ERROR_CODES.BAD_USER_INPUT, problem);
    if (!isBasicOrHigher(auth.roles)) throw new AppError(ERROR_CODES.FORBIDDEN, BRANDING_TEXTS.planHint);
  }
  const company = await services.db
    .selectFrom('companies')
    .selectAll()
    .where('id', '=', auth.companyId)
    .executeTakeFirstOrThrow();
  const write = (logoKey: string | undefined) =>
    services.db.transaction().execute((trx) =>
      trx
        .updateTable('companies')
        .set({
          name: data.name,
          ...(data.address !== undefined && data.address !== null ? { address: data.address || null } : {}),
          ...(data.vatNo !== undefined && data.vatNo !== null ? { vat_no: data.vatNo || null } : {}),
          ...(data.countryCode ? { country_code: data.countryCode } : {}),
          ...(logoKey !== undefined ? { logo_key: logoKey } : {}),
          ...(accent !== undefined ? { accent_color: accent ? accent.toLowerCase() : null } : {}),
        })
        .where('id', '=', company.id)
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  if (!input.logoImage) return write(undefined);
  const image = await processImage(input.logoImage, 1024, 'png');
  const key = `companies/${company.id}/logo-${randomBytes(12).toString('hex')}.${image.ext}`;
  return replaceImage(services, key, image, company.logo_key, () => write(key));
}
