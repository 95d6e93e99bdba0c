import { Hono } from 'hono';
import { AddWishlistSchema, WishlistPageSchema } from '~/features/wishlist/wishlist.schema';
import { addToWishlist, listWishlist, removeFromWishlist } from '~/features/wishlist/wishlist.service.server';
import { type AppDeps, type AppVariables, serviceContext } from '../context.server';
import { parseInput, readJson, requireSignIn, setPageHeaders } from './http.server';


/** Spec §7 wishlist calls: own items only; the owner is the caller, never the payload's email. */
export function wishlistApi(deps: AppDeps) {
  const api = new Hono<{ Variables: AppVariables }>();

  api.get('/wishlist/:email', async (c) => {
    const page = parseInput(WishlistPageSchema, c.req.query());
    const { items, total } = await listWishlist(serviceContext(deps, c.get('user')), { email: c.req.param('email'), ...page });
    setPageHeaders(c, page, total);
    return c.json(items);
  });

  api.post('/wishlist', async (c) => {
    requireSignIn(c);
    const input = parseInput(AddWishlistSchema, readJson(c));
    return c.json(await addToWishlist(serviceContext(deps, c.get('user')), input), 201);
  });

  api.delete('/wishlist/:id', async (c) => {
    return c.json(await removeFromWishlist(serviceContext(deps, c.get('user')), c.req.param('id')));
  });

  return api;
}
