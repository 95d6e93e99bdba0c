import { redirect } from 'react-router';
import { addToWishlist } from '~/features/wishlist/wishlist.service.server';
import { AddWishlistFormSchema } from '~/features/wishlist/wishlist.schema';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { withFlash } from '~/lib/page/flash.server';
import { LOG_IN, loginPath } from '~/lib/page/login-path';
import { MESSAGES } from '~/lib/texts/messages';
import { errorPage, pageRefusal } from '~/lib/page/page-errors.server';
import { safeRedirectPath } from '~/lib/page/session.server';
import type { Route } from './+types/wishlist-add';
import { defineAction } from '~/lib/page/page-action.server';

/**
 * Where 'Add to Wishlist' posts when JavaScript is off: adds, then shows the outcome on the next
 * page as a flash message — the home page goes on to /wishlist (docs/product.md#wishlist-add), All blogs comes back.
 */
/** Signed out: the "log in" notice, before the rest of the form is even checked. */
async function wishlistSignedOut({ request }: Route.ActionArgs) {
  const redirectTo = (await request.formData()).get('redirectTo');
  const back = safeRedirectPath(typeof redirectTo === 'string' ? redirectTo : null);
  return redirect(back, { headers: withFlash({ type: 'dialog', kind: 'warning', title: MESSAGES.loginRequired, text: MESSAGES.loginToWishlist, action: { text: LOG_IN, href: loginPath(back) } }) });
}

export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [], input: AddWishlistFormSchema, signedOut: wishlistSignedOut },
  async ({ request }, { ctx, input }) => {
    const form = Object.fromEntries(await request.formData());
    const parsed = input.safeParse(form);
    if (!parsed.success) throw new Response('Bad request', { status: 400 });
    const { blogId, variant, redirectTo } = parsed.data;
    const back = safeRedirectPath(redirectTo);
    try {
      await addToWishlist(ctx, { blogId, source: variant });
    } catch (error) {
      if (pageRefusal(error).code !== 'conflict') errorPage(error);
      return redirect(back, { headers: withFlash({ type: 'dialog', kind: 'info', title: MESSAGES.alreadyAddedTitle, text: MESSAGES.alreadyAddedText }) });
    }
    return variant === 'home'
      ? redirect('/wishlist', { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.homeWishlistSuccess, duration: FEEDBACK_MS.success }) })
      : redirect(back, { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.wishlistAdded, duration: FEEDBACK_MS.success }) });
  },
);

export function loader() {
  return redirect('/wishlist');
}
