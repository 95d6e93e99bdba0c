import { z } from 'zod';

/** Where an item was added from; it decides whether the item carries createdAt or likeCount (docs/product.md#wishlist-item-fields). */
export type WishlistSource = 'home' | 'allblogs';

export const WISHLIST_PAGE_SIZE = 10;
export const WISHLIST_MAX_PAGE_SIZE = 100;

const blogId = z.string().trim().min(1, 'blogId is required').max(64, 'blogId is too long');

/**
 * The descriptive fields both POST /wishlist payloads carry. They are checked for shape only: the
 * stored copy is taken from the blog itself, and the owner is always the caller, never `email`.
 */
const described = {
  blogId,
  title: z.string().max(500).optional(),
  photo: z.string().max(2048).nullable().optional(),
  email: z.string().max(254).optional(),
  category: z.string().max(100).optional(),
  description: z.string().max(1000).optional(),
};

/**
 * Both payloads of POST /wishlist (docs/product.md#the-api): from the home page with `createdAt`, from All blogs
 * with `likeCount`. The presence of `likeCount` tells them apart.
 */
export const AddWishlistSchema = z
  .object({
    ...described,
    createdAt: z.iso.datetime({ offset: true }).optional(),
    likeCount: z.number().int().min(0).optional(),
  })
  .transform((body): AddWishlistInput => ({ blogId: body.blogId, source: body.likeCount === undefined ? 'home' : 'allblogs' }));

export interface AddWishlistInput {
  blogId: string;
  source: WishlistSource;
}

/** The no-JavaScript add form (components/add-to-wishlist-button.tsx) posts these. */
export const AddWishlistFormSchema = z.object({
  blogId,
  variant: z.enum(['home', 'allblogs']),
  redirectTo: z.string().max(2048).optional(),
});

export const WishlistPageSchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(WISHLIST_MAX_PAGE_SIZE).default(WISHLIST_PAGE_SIZE),
});
export type WishlistPageInput = z.infer<typeof WishlistPageSchema>;
