import { z } from 'zod';
import { MESSAGES } from '~/lib/texts/messages';
import { CONTROL_CHARACTERS, sameSitePath } from '~/lib/page/same-site-path';
import { PHOTO_MAX_LENGTH } from './images.schema';

export { PHOTO_MAX_LENGTH };

const UPLOADED = /^\/uploads\/[A-Za-z0-9._-]+$/;

/**
 * A picture's address as the image pipeline answers it: our own `/uploads/{name}` or an absolute
 * http(s) URL (S3, a sign-in provider's picture). A path that leaves the site or the uploads,
 * `javascript:`, `data:` and control characters anywhere are refused: browsers drop some of them
 * and would fetch another site's (or another page's) address.
 */
export function isPhotoUrl(value: string): boolean {
  if (CONTROL_CHARACTERS.test(value)) return false;
  if (value.startsWith('/')) return UPLOADED.test(value) && sameSitePath(value) === value;
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

const photoUrl = z.string({ message: MESSAGES.fieldRequired }).trim().max(PHOTO_MAX_LENGTH, `Photo URL must be at most ${PHOTO_MAX_LENGTH} characters`);
const NOT_A_PHOTO = 'Photo must be an image URL';

/**
 * The one photo rule for blogs and people (docs/decisions/037). What differs is only whether it may be
 * cleared: a blog's photo is required; a person's may be sent empty, which clears it (null).
 */
export const PhotoUrlSchema = photoUrl.min(1, MESSAGES.fieldRequired).refine(isPhotoUrl, NOT_A_PHOTO);
export const ClearablePhotoUrlSchema = photoUrl
  .refine((value) => value === '' || isPhotoUrl(value), NOT_A_PHOTO)
  .transform((value) => (value === '' ? null : value));
