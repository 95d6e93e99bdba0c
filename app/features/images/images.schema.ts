/** The widths every uploaded image is stored at, for `srcset` (docs/product.md#image-hosting). */
export const IMAGE_WIDTHS = [400, 800, 1600] as const;

/** Decompression bombs are refused from the header, before a pixel is decoded. */
export const MAX_IMAGE_PIXELS = 40_000_000;

/**
 * The longest picture address, a blog's and a person's alike (the database's CHECKs say the same).
 * Here, in a module without zod, so browser code that needs the limit does not load zod.
 */
export const PHOTO_MAX_LENGTH = 2048;

export const ACCEPTED_IMAGE_TYPES = 'image/jpeg,image/png,image/webp,image/gif';

/** Names the pipeline generates (ids.server UUID + width); nothing else is ever served. */
export const STORED_NAME = /^[0-9a-f-]{36}-\d{2,4}\.webp$/;

const VARIANT = /^(.*-)(\d+)\.webp$/;

/**
 * Our stored names end in `-{width}.webp` and the answered URL is the largest; the other widths
 * sit beside it. Any other URL (an older or external photo) gets no srcset.
 */
export function imageSrcSet(url: string | null | undefined): string | undefined {
  const match = url?.match(VARIANT);
  if (!match || Number(match[2]) !== IMAGE_WIDTHS.at(-1)) return undefined;
  return IMAGE_WIDTHS.map((w) => `${match[1]}${w}.webp ${w}w`).join(', ');
}
