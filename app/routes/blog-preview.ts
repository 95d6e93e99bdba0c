import { PreviewSchema } from '~/features/blogs/blogs.schema';
import { renderMarkdown } from '~/features/blogs/markdown.server';
import { ownImageBases } from '~/features/images/image-store.server';
import { MESSAGES } from '~/lib/messages';
import type { Route } from './+types/blog-preview';

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * The writing form's Preview tab (docs/decisions/030): the body rendered by the blog page's own
 * renderer and sanitiser, on the server, so neither ships to the browser. Writers only (a form
 * post, multipart: a body may be 100,000 characters); nothing is stored or cached.
 */
export async function action({ context, request }: Route.ActionArgs) {
  if (!context.user) return Response.json({ message: MESSAGES.authRequired }, { status: 401, headers: NO_STORE });
  const form = await request.formData();
  const parsed = PreviewSchema.safeParse({ long_description: form.get('long_description') ?? '' });
  if (!parsed.success) return Response.json({ message: parsed.error.issues[0]?.message }, { status: 400, headers: NO_STORE });
  const html = await renderMarkdown(parsed.data.long_description, { imageBases: ownImageBases(context.deps.config), remember: false });
  return Response.json({ html }, { headers: NO_STORE });
}
