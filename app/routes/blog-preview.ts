import { previewBody } from '~/features/blogs/blogs.service.server';
import { PreviewSchema } from '~/features/blogs/blogs.schema';
import { isAppError, RateLimitedError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';
import type { Route } from './+types/blog-preview';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineAction } from '~/lib/page/page-action.server';

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * The writing form's Preview tab (docs/decisions/030, 047): the body rendered by the blog page's
 * own renderer and sanitiser, on the server, so neither ships to the browser. Writers only (a
 * form post, multipart: a body may be 100,000 characters), rate-limited; nothing is stored or
 * cached. A body that cannot be rendered in time answers 400 with a message saying so.
 */
export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [RATE_LIMITS.preview], input: PreviewSchema, signedOut: () => Response.json({ message: MESSAGES.authRequired }, { status: 401, headers: NO_STORE }) },
  async ({ request }, { ctx, input }) => {
    const form = await request.formData();
    const parsed = input.safeParse({ long_description: form.get('long_description') ?? '' });
    if (!parsed.success) return Response.json({ message: parsed.error.issues[0]?.message }, { status: 400, headers: NO_STORE });
    try {
      return Response.json(await previewBody(ctx, parsed.data), { headers: NO_STORE });
    } catch (error) {
      if (!isAppError(error)) throw error;
      const headers = { ...NO_STORE, ...(error instanceof RateLimitedError ? error.headers : {}) };
      return Response.json({ message: error.message, code: error.code }, { status: error.status, headers });
    }
  },
);
