import { Link, redirect } from 'react-router';
import { Page } from '~/components/page';
import { ConfirmRemoval, WishlistList, WishlistPager } from '~/features/wishlist/components/wishlist-list';
import { WISHLIST_PAGE_SIZE, WishlistPageSchema } from '~/features/wishlist/wishlist.schema';
import { listWishlistPage, removeFromWishlist } from '~/features/wishlist/wishlist.service.server';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { withFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { pageRefusal } from '~/lib/page/page-errors.server';
import { userOrRedirectToLogin } from '~/lib/page/session.server';
import { pageTitle } from '~/lib/page/seo';
import type { Route } from './+types/wishlist';
import { defineAction } from '~/lib/page/page-action.server';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, 'My Wishlist') }];

const pageOf = (value: unknown) => WishlistPageSchema.shape.page.catch(1).parse(value ?? undefined);

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const user = userOrRedirectToLogin(context, request);
  // Another user's email in the path leads to one's own list (docs/product.md#wishlist).
  if (params.email && params.email.toLowerCase() !== user.email.toLowerCase()) {
    throw redirect(`/wishList/${encodeURIComponent(user.email)}`);
  }
  const url = new URL(request.url);
  const page = pageOf(url.searchParams.get('page'));
  const { items, total } = await listWishlistPage(context.service, { email: user.email, page, limit: WISHLIST_PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(total / WISHLIST_PAGE_SIZE));
  if (page > pages) throw redirect(pages > 1 ? `${url.pathname}?page=${pages}` : url.pathname);
  const removing = items.find((item) => item._id === url.searchParams.get('remove')) ?? null;
  return { items, total, page, pages, removing };
}

/** Removal confirmed on the no-JavaScript confirmation panel; the outcome comes as a flash. */
export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [], input: 'id' },
  async ({ request }, { ctx }) => {
    const form = await request.formData();
    const page = pageOf(form.get('page'));
    const back = `${new URL(request.url).pathname}${page > 1 ? `?page=${page}` : ''}`;
    let deleted = false;
    try {
      deleted = (await removeFromWishlist(ctx, String(form.get('id') ?? ''))).deletedCount > 0;
    } catch (error) {
      // A refusal (not yours, gone) is the error dialog; a database outage is the 503 page.
      ctx.log.warn({ err: pageRefusal(error) }, 'wishlist removal failed');
    }
    const flash = deleted
      ? { type: 'dialog' as const, kind: 'success' as const, title: MESSAGES.deletedTitle, text: MESSAGES.deletedText, timer: FEEDBACK_MS.success }
      : { type: 'dialog' as const, kind: 'error' as const, title: MESSAGES.deleteErrorTitle, text: MESSAGES.deleteErrorText, timer: FEEDBACK_MS.other };
    return redirect(back, { headers: withFlash(flash) });
  },
);

export default function Wishlist({ loaderData }: Route.ComponentProps) {
  const { items, total, page, pages, removing } = loaderData;
  return (
    <Page title={MESSAGES.wishlistHeading(total)}>
      {removing ? <ConfirmRemoval item={removing} page={page} /> : null}
      {total === 0 ? (
        <div className="mt-6 flex flex-col items-start gap-4">
          <p className="opacity-90">{MESSAGES.emptyWishlist}</p>
          <Link to="/allblogs" className="btn btn-primary btn-sm">{MESSAGES.startReading}</Link>
        </div>
      ) : (
        <>
          <WishlistList items={items} page={page} />
          <WishlistPager page={page} pages={pages} />
        </>
      )}
    </Page>
  );
}
