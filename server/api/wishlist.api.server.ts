import type { AddWishlistInput, WishlistPageInput } from '~/features/wishlist/wishlist.schema';
import { addToWishlist, listWishlist, removeFromWishlist } from '~/features/wishlist/wishlist.service.server';
import type { Handlers } from './endpoints.server';
import { setPageHeaders } from './handlers.server';

/** The wishlist calls (docs/product.md#the-api): own items only; the owner is the caller, never the payload's email. */
export const WISHLIST_HANDLERS: Handlers = {
  'get /api/wishlist/{email}': async ({ c, ctx, query }) => {
    const page = query as WishlistPageInput;
    const { items, total } = await listWishlist(ctx, { email: c.req.param('email') ?? '', ...page });
    setPageHeaders(c, page, total);
    return c.json(items);
  },
  'post /api/wishlist': async ({ c, ctx, body }) => c.json(await addToWishlist(ctx, body as AddWishlistInput), 201),
  'delete /api/wishlist/{id}': async ({ c, ctx }) => c.json(await removeFromWishlist(ctx, c.req.param('id') ?? '')),
};
