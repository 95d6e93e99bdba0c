import { redirect } from 'react-router';
import { likeBlog, unlikeBlog } from '~/features/blogs/blogs.service.server';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { withFlash } from '~/lib/page/flash.server';
import { LOG_IN, loginPath } from '~/lib/page/login-path';
import { MESSAGES } from '~/lib/texts/messages';
import { pageRefusal } from '~/lib/page/page-errors.server';
import { safeRedirectPath } from '~/lib/page/session.server';
import type { Route } from './+types/blog-like';
import { defineAction } from '~/lib/page/page-action.server';

/**
 * The like button's no-JavaScript path (with JavaScript it calls the API directly): likes or
 * unlikes, then returns to the page it came from with the outcome as a flash.
 */
/** A signed-out like: back where it was, with the "log in" notice. */
async function likeSignedOut({ request, params }: Route.ActionArgs) {
  const back = safeRedirectPath(String((await request.formData()).get('redirectTo') ?? ''), `/blogs/${params.id}`);
  return redirect(back, { headers: withFlash({ type: 'dialog', kind: 'warning', title: MESSAGES.loginRequired, text: MESSAGES.loginToLike, action: { text: LOG_IN, href: loginPath(back) } }) });
}

export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [], input: 'id', signedOut: likeSignedOut },
  async ({ request, params }, { ctx }) => {
    const form = await request.formData();
    const back = safeRedirectPath(String(form.get('redirectTo') ?? ''), `/blogs/${params.id}`);
    try {
      if (form.get('intent') === 'unlike') {
        await unlikeBlog(ctx, params.id);
        return redirect(back);
      }
      const { modifiedCount } = await likeBlog(ctx, params.id);
      return redirect(back, modifiedCount ? { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.likeSuccess, duration: FEEDBACK_MS.like }) } : undefined);
    } catch (error) {
      // Like errors are only logged (docs/product.md#messages).
      ctx.log.warn({ err: pageRefusal(error), blog: params.id }, 'like failed');
      return redirect(back);
    }
  },
);

export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/blogs/${params.id}`);
}
