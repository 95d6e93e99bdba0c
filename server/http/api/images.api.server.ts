import type { Context } from 'hono';
import { z } from 'zod';
import { IMMUTABLE_CACHE, imageStoreFor, LocalImageStore } from '~/features/images/image-store.server';
import { uploadImage } from '~/features/images/images.service.server';
import { fileBytes, IMAGE_REQUIRED, megabytes, readUploadForm } from '~/features/images/upload.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import type { AppDeps } from '../../context.server';
import { defineOperation, type Operation } from './endpoints.server';
import { bad, denied, ImageResponse, MessageResponse } from './responses.server';

const ImageBody = z.object({ image: z.string().describe('The image file (JPEG, PNG, WebP or GIF)') });

/** An image host's call: multipart field `image` → `{ success, data: { url } }`. */
export const IMAGE_OPERATIONS: Operation[] = [
  defineOperation(
    { method: 'post', path: '/api/images', limit: RATE_LIMITS.upload, tag: 'Images', auth: 'required', summary: 'Upload an image (multipart field `image`): verified, re-encoded to WebP at 400/800/1600 px', multipart: ImageBody, responses: { 201: { description: 'Stored', schema: ImageResponse }, ...denied, ...bad, 413: { description: 'Too large', schema: MessageResponse }, 415: { description: 'Not a JPEG, PNG, WebP or GIF', schema: MessageResponse } } },
    async ({ c, ctx, deps }) => {
      const maxBytes = megabytes(deps.config.MAX_UPLOAD_MB);
      const bytes = await fileBytes(await readUploadForm(c.req.raw, maxBytes), 'image', maxBytes);
      if (!bytes) throw IMAGE_REQUIRED();
      const { url } = await uploadImage(ctx, bytes);
      return c.json({ success: true, data: { url } }, 201);
    },
  ),
];

/** `/uploads/*` from local disk: names are ours and never change, so they cache forever. */
export function serveUploads(deps: AppDeps) {
  return async (c: Context) => {
    const store = imageStoreFor(deps.config);
    const body = store instanceof LocalImageStore ? await store.read(c.req.param('name') ?? '') : null;
    if (!body) return c.notFound();
    return new Response(new Uint8Array(body), {
      headers: {
        'Content-Type': 'image/webp',
        'Content-Length': String(body.length),
        'Cache-Control': IMMUTABLE_CACHE,
        'X-Content-Type-Options': 'nosniff',
      },
    });
  };
}
