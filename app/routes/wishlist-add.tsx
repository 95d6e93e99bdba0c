import { redirect } from 'react-router';
import { addToWishlist } from '~/features/wishlist/wishlist.service.server';
import { AddWishlistFormSchema } from '~/features/wishlist/wishlist.schema';
import { isAppError } from '~/lib/errors';
import { FEEDBACK_MS } from '~/lib/feedback';
import { withFlash } from '~/lib/flash.server';
import { LOG_IN, loginPath } from '~/lib/login-path';
import { MESSAGES } from '~/lib/messages';
import { safeRedirectPath } from '~/lib/session.server';
import type { Route } from './+types/wishlist-add';

/**
 * Where 'Add to Wishlist' posts when JavaScript is off: adds, then shows the outcome on the next
 * page as a flash message — the home page goes on to /wishlist (spec §2), All blogs comes back.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = AddWishlistFormSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw new Response('Bad request', { status: 400 });
  const { blogId, variant, redirectTo } = parsed.data;
  const back = safeRedirectPath(redirectTo);
  if (!context.user) {
    return redirect(back, { headers: withFlash({ type: 'dialog', kind: 'warning', title: MESSAGES.loginRequired, text: MESSAGES.loginToWishlist, action: { text: LOG_IN, href: loginPath(back) } }) });
  }
  try {
    await addToWishlist(context.service, { blogId, source: variant });
  } catch (error) {
    if (isAppError(error) && error.code === 'conflict') {
      return redirect(back, { headers: withFlash({ type: 'dialog', kind: 'info', title: MESSAGES.alreadyAddedTitle, text: MESSAGES.alreadyAddedText }) });
    }
    if (isAppError(error) && error.code === 'not_found') throw new Response('Not found', { status: 404 });
    throw error;
  }
  return variant === 'home'
    ? redirect('/wishlist', { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.homeWishlistSuccess, duration: FEEDBACK_MS.success }) })
    : redirect(back, { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.wishlistAdded, duration: FEEDBACK_MS.success }) });
}

export function loader() {
  return redirect('/wishlist');
}
