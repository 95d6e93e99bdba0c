import { AddWishlistSchema, WishlistPageSchema } from '~/features/wishlist/wishlist.schema';
import { addToWishlist, listWishlist, removeFromWishlist } from '~/features/wishlist/wishlist.service.server';
import { defineOperation, type Operation } from './endpoints.server';
import { setPageHeaders } from './handlers.server';
import { bad, DeletedResponse, denied, InsertedResponse, MessageResponse, missing, WishlistItemResponse } from './responses.server';

/** The wishlist calls (docs/product.md#the-api): own items only; the owner is the caller, never the payload's email. */
export const WISHLIST_OPERATIONS: Operation[] = [
  defineOperation(
    { method: 'get', path: '/api/wishlist/{email}', tag: 'Wishlist', auth: 'required', summary: "The caller's own wishlist", query: WishlistPageSchema, responses: { 200: { description: 'Items', schema: WishlistItemResponse, list: true, paged: true }, ...denied, ...bad } },
    async ({ c, ctx, query, params }) => {
      const { items, total } = await listWishlist(ctx, { email: params.email, ...query });
      setPageHeaders(c, query, total);
      return c.json(items);
    },
  ),
  defineOperation(
    { method: 'post', path: '/api/wishlist', tag: 'Wishlist', auth: 'required', summary: 'Add a blog to the caller’s wishlist (the home page’s payload or All blogs’)', body: AddWishlistSchema, responses: { 201: { description: 'Added', schema: InsertedResponse }, ...denied, ...bad, ...missing, 409: { description: 'Already in the wishlist', schema: MessageResponse } } },
    async ({ c, ctx, body }) => c.json(await addToWishlist(ctx, body), 201),
  ),
  defineOperation(
    { method: 'delete', path: '/api/wishlist/{id}', tag: 'Wishlist', auth: 'required', summary: 'Remove one of the caller’s wishlist items', responses: { 200: { description: 'Removed', schema: DeletedResponse }, ...denied, 404: { description: 'No such item', schema: MessageResponse } } },
    async ({ c, ctx, params }) => c.json(await removeFromWishlist(ctx, params.id)),
  ),
];
