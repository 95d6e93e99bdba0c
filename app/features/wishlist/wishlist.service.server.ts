import { assertCanWrite } from '~/kernel/standing.server';
import { getBlog } from '~/features/blogs/blogs.service.server';
import { sameEmail } from '~/features/users/users.schema';
import { AppError } from '~/lib/core/errors';
import { newId } from '~/lib/core/ids.server';
import { MESSAGES } from '~/lib/texts/messages';
import { userOrThrow401, type ServiceContext } from '~/lib/core/service-context';
import { presentWishlistItem, presentWishlistPageItem, type WishlistItemJson, type WishlistPageItem } from './wishlist.presenter';
import {
  countVisibleWishlistItems,
  deleteWishlistItem,
  findWishlistOwner,
  insertWishlistItem,
  listVisibleWishlistItems,
  listWishlistBlogIdsOf,
} from './wishlist.repo.server';
import type { AddWishlistInput, WishlistPageInput } from './wishlist.schema';


/**
 * Adds a blog the caller may see to the caller's own wishlist. The stored copy (title, photo,
 * category, description, likeCount) comes from the blog itself, so nobody can plant text under
 * a real blog's id; the owner is the caller whatever the payload's email says.
 */
export async function addToWishlist(ctx: ServiceContext, input: AddWishlistInput): Promise<{ insertedId: string }> {
  const user = await assertCanWrite(ctx);
  const blog = await getBlog(ctx, input.blogId);
  const id = newId();
  const inserted = await insertWishlistItem(ctx.db, {
    id,
    user_id: user.id,
    email: user.email,
    blog_id: blog._id,
    title: blog.title,
    photo: blog.photo ?? null,
    category: blog.category,
    description: blog.short_description,
    like_count: input.source === 'allblogs' ? blog.likes : null,
    created_at: ctx.now().toISOString(),
  });
  if (!inserted) throw new AppError('conflict', MESSAGES.alreadyAddedText);
  return { insertedId: id };
}

async function wishlistPage(ctx: ServiceContext, input: { email: string } & WishlistPageInput) {
  const user = userOrThrow401(ctx);
  if (!sameEmail(input.email, user.email)) throw new AppError('forbidden', MESSAGES.forbidden);
  const [rows, total] = await Promise.all([
    listVisibleWishlistItems(ctx.db, user.id, (input.page - 1) * input.limit, input.limit),
    countVisibleWishlistItems(ctx.db, user.id),
  ]);
  return { rows, total };
}

/** One page of a wishlist, newest first, in the spec's fields (the API); only its owner may read it. */
export async function listWishlist(ctx: ServiceContext, input: { email: string } & WishlistPageInput): Promise<{ items: WishlistItemJson[]; total: number }> {
  const { rows, total } = await wishlistPage(ctx, input);
  return { items: rows.map(presentWishlistItem), total };
}

/** The same for the wishlist page, each item with its blog's address as it reads now (its Details link). */
export async function listWishlistPage(ctx: ServiceContext, input: { email: string } & WishlistPageInput): Promise<{ items: WishlistPageItem[]; total: number }> {
  const { rows, total } = await wishlistPage(ctx, input);
  return { items: rows.map(presentWishlistPageItem), total };
}

/** The ids of the blogs in the caller's wishlist, for the "already added" check; none when signed out. */
export async function listWishlistBlogIds(ctx: ServiceContext): Promise<string[]> {
  return ctx.user ? listWishlistBlogIdsOf(ctx.db, ctx.user.id) : [];
}

/** Removes one of the caller's own items; someone else's is refused, an unknown id is a 404. */
export async function removeFromWishlist(ctx: ServiceContext, id: string): Promise<{ deletedCount: number }> {
  const user = await assertCanWrite(ctx);
  const item = await findWishlistOwner(ctx.db, id);
  if (!item) throw new AppError('not_found', MESSAGES.apiNotFound);
  if (item.user_id !== user.id) throw new AppError('forbidden', MESSAGES.forbidden);
  return { deletedCount: await deleteWishlistItem(ctx.db, id, user.id) };
}
