import { type Context, Hono } from 'hono';
import { IMMUTABLE_CACHE, imageStoreFor, LocalImageStore } from '~/features/images/image-store.server';
import { assertCanUpload, uploadImage } from '~/features/images/image.service.server';
import { fileBytes, IMAGE_REQUIRED, megabytes, readUploadForm } from '~/features/images/upload.server';
import { type AppDeps, type AppVariables, serviceContext } from '../context.server';
import { CONTENT_RATE_LIMITS, rateLimit } from '../middleware/rate-limit.server';

/** BRIEF §2 "Image hosting": multipart field `image` → `{ success, data: { url } }` like the spec's host. */
export function imagesApi(deps: AppDeps) {
  const api = new Hono<{ Variables: AppVariables }>();
  const maxBytes = megabytes(deps.config.MAX_UPLOAD_MB);

  api.post('/images', rateLimit({ store: deps.rateLimits, log: deps.log, ...CONTENT_RATE_LIMITS.upload }), async (c) => {
    const ctx = serviceContext(deps, c.get('user'));
    await assertCanUpload(ctx);
    const bytes = await fileBytes(await readUploadForm(c.req.raw, maxBytes), 'image', maxBytes);
    if (!bytes) throw IMAGE_REQUIRED();
    const { url } = await uploadImage(ctx, imageStoreFor(deps.config), bytes);
    return c.json({ success: true, data: { url } }, 201);
  });

  return api;
}

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
