import { assertCanWrite } from '~/kernel/standing.server';
import type { Metadata } from 'sharp';
import { lazy } from '~/lib/page/lazy';
import { AppError } from '~/lib/core/errors';
import { newId } from '~/lib/core/ids.server';
import { MESSAGES } from '~/lib/texts/messages';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import type { PhotoFetchPolicy, ServiceContext } from '~/lib/core/service-context';
import { type ImageStore, type ImageStoreConfig, isOwnImage, ownImageBases } from './image-store.server';
import { fetchPhoto } from './photo-fetch.server';
import { deleteImageFocus, findImageFocus, insertImageFocus } from './images.repo.server';
import { IMAGE_WIDTHS, MAX_IMAGE_PIXELS } from './images.schema';
import { megabytes } from './upload.server';

// What other features use of the image store and the upload readers comes through this service,
// the feature's public face (decision 035).
export { type ImageStoreConfig, imageStoreFor, isOwnImage, ownImageBases, ownPhoto, STORED_NAME } from './image-store.server';
export { fileBytes, megabytes, readUploadForm } from './upload.server';

const loadSharp = lazy(async () => {
  const { default: sharp } = await import('sharp');
  // libvips' operation cache keeps decoded images around; a web server re-encoding uploads gains
  // nothing from it and pays in resident memory.
  sharp.cache(false);
  // libvips' threads per picture as sharp chose them (one per core), restored after a lean one.
  full = sharp.concurrency();
  return sharp;
});
let full = 0;

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif']);

export interface ImageVariant {
  width: number;
  body: Buffer;
}

/** Where the image's subject is, in whole percent of its width and height (0 left/top, 100 right/bottom). */
export interface FocalPoint {
  x: number;
  y: number;
}

export interface ProcessedImage {
  variants: ImageVariant[];
  /** Null when it could not be found: the photo is shown with the default position. */
  focus: FocalPoint | null;
}

/** The square the attention strategy looks at: small enough to cost little, large enough to find a face. */
const FOCUS_SQUARE = 256;

/**
 * The image's focal point by sharp's attention strategy (luminance, saturation, skin tones). It
 * reports the point in the resized, not yet cropped image, which is mapped back to percent of
 * the whole (docs/decisions/040).
 */
async function focalPoint(sharp: Awaited<ReturnType<typeof loadSharp>>, data: Buffer, raw: { raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 } }): Promise<FocalPoint | null> {
  const { width, height } = raw.raw;
  try {
    const { info } = await sharp(data, raw)
      .resize(FOCUS_SQUARE, FOCUS_SQUARE, { fit: 'cover', position: sharp.strategy.attention })
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.attentionX === undefined || info.attentionY === undefined) return null;
    const scale = FOCUS_SQUARE / Math.min(width, height);
    const percent = (at: number, size: number) => Math.min(100, Math.max(0, Math.round((at / (size * scale)) * 100)));
    return { x: percent(info.attentionX, width), y: percent(info.attentionY, height) };
  } catch {
    // The photo itself is fine (its widths were made); only its focus is unknown.
    return null;
  }
}

const unsupported = () => new AppError('unsupported_media_type', MESSAGES.imageFormatRefused, 'image');

/**
 * Judges the file by its decoded content (never its name or declared type), refuses bombs from
 * the header, then re-encodes: upright, all metadata (EXIF, GPS) gone, WebP at each width.
 * `lean`: with one libvips thread, not one per core (an import while readers are busy,
 * docs/decisions/097); the setting is the process's, so a picture that starts after it has its own.
 */
export async function processImage(bytes: Buffer, { lean = false } = {}): Promise<ProcessedImage> {
  const sharp = await loadSharp();
  sharp.concurrency(lean ? 1 : full);
  let meta: Metadata;
  try {
    // Header only, without the pixel limit, so a bomb is told apart from a non-image.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw unsupported();
  }
  if (!meta.format || !ACCEPTED_FORMATS.has(meta.format)) throw unsupported();
  const height = meta.pageHeight ?? meta.height ?? 0;
  if (!meta.width || !height) throw unsupported();
  if (meta.width * height > MAX_IMAGE_PIXELS) {
    throw new AppError('payload_too_large', `image: must be at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`, 'image');
  }
  try {
    // Decoded once, straight to the largest width (JPEG shrink-on-load keeps that cheap); the
    // smaller widths come from that small raw copy, not from the full-size original.
    const largest = IMAGE_WIDTHS.at(-1)!;
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
      .autoOrient()
      .resize({ width: largest, withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
    const variants: ImageVariant[] = [];
    for (const width of IMAGE_WIDTHS) {
      const body = await sharp(data, raw).resize({ width, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
      variants.push({ width, body });
    }
    return { variants, focus: await focalPoint(sharp, data, raw) };
  } catch {
    // A header that parses over a body that does not (truncated or corrupt data).
    throw unsupported();
  }
}

const variantNames = (id: string) => IMAGE_WIDTHS.map((width) => `${id}-${width}.webp`);

/** The store failed (disk full, S3 away): 507 or 503 with words a person can act on, never a stack. */
function storeFailure(error: unknown): AppError {
  const code = (error as { code?: unknown }).code;
  return code === 'ENOSPC' || code === 'EDQUOT'
    ? new AppError('insufficient_storage', MESSAGES.imageStoreFull, 'image')
    : new AppError('unavailable', MESSAGES.imageStoreUnavailable, 'image');
}

/**
 * `POST /api/images` and the forms' no-JavaScript path. Answers the largest width's URL. All
 * widths are stored or none: when one write fails, the ones already written are removed again
 * (what cannot be removed while the store is away is left to the orphan sweep).
 */
export async function uploadImage(ctx: ServiceContext, bytes: Buffer): Promise<{ url: string }> {
  await assertCanWrite(ctx);
  await ctx.limit(RATE_LIMITS.upload);
  return storeProcessed(ctx, ctx.images, await processImage(bytes));
}

/**
 * A sign-up's photo: counted and processed once, and stored before the account exists, so the
 * account is made in one step with its photo (an account left without it cannot happen). The
 * caller discards it again when the sign-up fails.
 */
export async function uploadSignUpImage(ctx: ServiceContext, bytes: Buffer): Promise<{ url: string }> {
  await ctx.limit(RATE_LIMITS.upload);
  return storeProcessed(ctx, ctx.images, await processImage(bytes));
}

/**
 * Stores the widths, then the focal point under the image's id. A point that cannot be written
 * costs only the default position, so it never fails an upload whose files are stored.
 */
async function storeProcessed(ctx: ServiceContext, store: ImageStore, image: ProcessedImage): Promise<{ url: string }> {
  const stored = await storeVariants(ctx, store, image.variants);
  const id = storedImageId(stored.url);
  if (id && image.focus) {
    try {
      await insertImageFocus(ctx.db, { image_id: id, focus_x: image.focus.x, focus_y: image.focus.y, created_at: ctx.now().toISOString() });
    } catch (error) {
      ctx.log.warn({ err: error, image: id }, 'focal point not stored; the photo is shown with the default position');
    }
  }
  return stored;
}

/** The focal point found when the image at `url` was uploaded; null for any other picture. */
export async function imageFocus(ctx: ServiceContext, url: string | null | undefined): Promise<FocalPoint | null> {
  const id = url ? storedImageId(url) : null;
  if (!id) return null;
  const row = await findImageFocus(ctx.db, id);
  return row ? { x: row.focus_x, y: row.focus_y } : null;
}

/** Every width is stored or none: when one write fails, the ones already written are removed again. */
async function storeVariants(ctx: ServiceContext, store: ImageStore, variants: { width: number; body: Buffer }[]): Promise<{ url: string }> {
  const id = newId();
  const results = await Promise.allSettled(variants.map((v) => store.put(`${id}-${v.width}.webp`, v.body, 'image/webp')));
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) {
    await removeVariants(ctx, store, id);
    ctx.log.warn({ err: failed.reason, image: id }, 'image store failed; image not stored');
    throw storeFailure(failed.reason);
  }
  ctx.log.info({ image: id, bytes: variants.at(-1)?.body.length }, 'image stored');
  return { url: (results.at(-1) as PromiseFulfilledResult<string>).value };
}

/** The image id in a URL our pipeline answered, or null for any other URL. */
export function storedImageId(url: string): string | null {
  return url.match(/([0-9a-f-]{36})-\d{2,4}\.webp$/)?.[1] ?? null;
}

async function removeVariants(ctx: ServiceContext, store: ImageStore, id: string): Promise<void> {
  const removed = await Promise.allSettled(variantNames(id).map((name) => store.delete(name)));
  const failed = removed.find((r) => r.status === 'rejected');
  if (failed) ctx.log.warn({ err: failed.reason, image: id }, 'image not removed; the orphan sweep will');
}

/** Removes every width of an image this request stored but could not use (its blog was not saved), and its focal point. */
export async function discardImage(ctx: ServiceContext, url: string): Promise<void> {
  const id = storedImageId(url);
  if (!id) return;
  await removeVariants(ctx, ctx.images, id);
  try {
    await deleteImageFocus(ctx.db, [id]);
  } catch (error) {
    // The database that refused the blog may refuse this too; a point without files harms nothing.
    ctx.log.warn({ err: error, image: id }, 'focal point of a discarded image not removed');
  }
}

/** How long fetching a photo from an address may take, redirects included. */
export const PHOTO_FETCH_TIMEOUT_MS = 10_000;

const policies = new WeakMap<object, PhotoFetchPolicy>();

/** The process's photo fetch policy (docs/decisions/050), made once per configuration. */
export function photoFetchPolicy(config: ImageStoreConfig & { MAX_UPLOAD_MB: number; IMAGE_FETCH_ALLOW_LOOPBACK: 'on' | 'off' }): PhotoFetchPolicy {
  let policy = policies.get(config);
  if (!policy) {
    policy = { ownBases: ownImageBases(config), maxBytes: megabytes(config.MAX_UPLOAD_MB), timeoutMs: PHOTO_FETCH_TIMEOUT_MS, allowLoopback: config.IMAGE_FETCH_ALLOW_LOOPBACK === 'on' };
    policies.set(config, policy);
  }
  return policy;
}

/**
 * A blog's photo as it is stored (docs/decisions/050): a path on this site (`/uploads/…`) or an
 * image of our store is kept as it is; any other address is fetched once by the server (guarded:
 * photo-fetch.server.ts), re-encoded by the pipeline like an upload (and counted as one), and
 * our copy's URL answered, with `stored` true so a caller whose save fails can discard it.
 * Whatever cannot be fetched or is no image is a 400 on `photo`, and nothing is stored.
 */
export async function adoptPhoto(ctx: ServiceContext, photo: string): Promise<{ url: string; stored: boolean }> {
  const policy = ctx.photoFetch;
  if (photo.startsWith('/') || (policy && isOwnImage(photo, policy.ownBases))) return { url: photo, stored: false };
  if (!policy) throw new AppError('bad_request', 'photo: must be an image uploaded to this site', 'photo');
  await ctx.limit(RATE_LIMITS.upload);
  const bytes = await fetchPhoto(photo, policy);
  let image: ProcessedImage;
  try {
    image = await processImage(bytes);
  } catch (error) {
    // The request's own body was fine: what the address gave is what is refused (400, not 413/415).
    if (error instanceof AppError && error.status < 500) throw new AppError('bad_request', error.message.replace(/^image: /, 'photo: '), 'photo');
    throw error;
  }
  ctx.log.info({ photo: new URL(photo).host }, 'photo fetched from an address');
  return { url: (await storeProcessed(ctx, ctx.images, image)).url, stored: true };
}

/**
 * An image an import brings (docs/decisions/072): judged and re-encoded by the same pipeline as
 * an upload, stored, its URL answered. Not counted per client: the import's own limits bound it.
 */
export async function storeImportedImage(ctx: ServiceContext, bytes: Buffer, options: { lean?: boolean } = {}): Promise<{ url: string }> {
  return storeProcessed(ctx, ctx.images, await processImage(bytes, options));
}

/** An import's image at its old address, fetched once with the photo fetch's guards (public addresses only, size and time bounds). */
export async function fetchImportedImage(ctx: ServiceContext, address: string): Promise<Buffer> {
  if (!ctx.photoFetch) throw new AppError('bad_request', 'photo: images at other addresses are not fetched here', 'photo');
  return fetchPhoto(address, ctx.photoFetch);
}
