import type { Context } from 'hono';
import { IMMUTABLE_CACHE, imageStoreFor, LocalImageStore } from '~/features/images/image-store.server';
import { uploadImage } from '~/features/images/images.service.server';
import { assertCanWrite } from '~/kernel/standing.server';
import { fileBytes, IMAGE_REQUIRED, megabytes, readUploadForm } from '~/features/images/upload.server';
import type { AppDeps } from '../context.server';
import type { Handlers } from './endpoints.server';

/** BRIEF §2 "Image hosting": multipart field `image` → `{ success, data: { url } }` like the spec's host. */
export const IMAGE_HANDLERS: Handlers = {
  'post /api/images': async ({ c, ctx, deps }) => {
    const maxBytes = megabytes(deps.config.MAX_UPLOAD_MB);
    // A suspended writer is refused before a byte of the upload is read.
    await assertCanWrite(ctx);
    const bytes = await fileBytes(await readUploadForm(c.req.raw, maxBytes), 'image', maxBytes);
    if (!bytes) throw IMAGE_REQUIRED();
    const { url } = await uploadImage(ctx, bytes);
    return c.json({ success: true, data: { url } }, 201);
  },
};

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
