import { MESSAGES } from '~/lib/texts/messages';

// Apart from image.schema.ts, which every page with a photo loads (imageSrcSet): only forms need these.

/** 'Image upload failed.' (docs/product.md#validation) followed by the image pipeline's reason, as a sentence. */
export function imageFailure(message: string): string {
  const reason = message.replace(/^(image|photo): /, '');
  return `${MESSAGES.imageUploadFailed} ${reason.charAt(0).toUpperCase()}${reason.slice(1)}${/[.!?]$/.test(reason) ? '' : '.'}`;
}

/** The image pipeline's own refusal for a file too large (upload.server), said before uploading. */
export const imageTooLarge = (maxMb: number) => `image: must be at most ${maxMb} MB`;
