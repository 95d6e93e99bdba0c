import { blogPathOf } from '~/features/blogs/blog-path';
import { photoPosition } from '~/features/images/photo-focus';
import type { WishlistListRow } from './wishlist.repo.server';

/**
 * A wishlist item as docs/product.md#wishlist-item-fields shapes it: `createdAt` when it was added from the home page,
 * `likeCount` when it was added from All blogs.
 */
export type WishlistItemJson = {
  _id: string;
  blogId: string;
  title: string;
  photo: string | null;
  /** The blog's photo focus as CSS object-position while this copy is still its photo; null otherwise (decision 040). */
  photo_position: string | null;
  email: string;
  category: string;
  description: string;
} & ({ createdAt: string; likeCount?: never } | { likeCount: number; createdAt?: never });

export function presentWishlistItem(row: WishlistListRow): WishlistItemJson {
  const base = {
    _id: row.id,
    blogId: row.blog_id,
    title: row.title,
    photo: row.photo,
    photo_position: row.photo !== null && row.photo === row.blog_photo ? photoPosition(row.photo_focus, row.photo_focus_x, row.photo_focus_y) : null,
    email: row.email,
    category: row.category,
    description: row.description,
  };
  return row.like_count === null ? { ...base, createdAt: row.created_at } : { ...base, likeCount: row.like_count };
}

/** An item as the wishlist page shows it: the spec's fields and the blog's address as it reads now (docs/decisions/069). */
export type WishlistPageItem = WishlistItemJson & { blogPath: string };

export const presentWishlistPageItem = (row: WishlistListRow): WishlistPageItem => ({ ...presentWishlistItem(row), blogPath: blogPathOf({ id: row.blog_id, slug: row.blog_slug }) });
