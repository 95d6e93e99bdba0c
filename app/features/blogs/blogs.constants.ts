/**
 * The blogs' choice lists and limits, without zod: browser code (the list's filter, the forms'
 * maxLength) imports them from here so a page that validates nothing in the browser does not
 * load zod (docs/decisions/038). blogs.schema re-exports them.
 */
import { PHOTO_MAX_LENGTH } from '~/features/images/images.schema';

/** The choice lists (docs/product.md#choice-lists), verbatim and in their order. */
export const BLOG_CATEGORIES = [
  'Personal',
  'Travelling & Photography',
  'Fashion & Beauty',
  'Food & Health',
  'Technology',
  'Education',
  'DIY & Craft Blogs',
] as const;
export const BLOG_TYPES = ['written content', 'Video', 'Photo', 'Podcast', 'Mini blog'] as const;
export const BLOG_AVAILABILITY = ['Public', 'Hidden'] as const;

export type BlogCategory = (typeof BLOG_CATEGORIES)[number];
export type BlogAvailability = (typeof BLOG_AVAILABILITY)[number];
export type BlogType = (typeof BLOG_TYPES)[number];

/** The same limits as the database's CHECK constraints (migration 2026-11-22T10-40-00_initial). */
export const BLOG_LIMITS = {
  title: 200,
  name: 100,
  short_description: 500,
  long_description: 100_000,
  details: 10_000,
  photo: PHOTO_MAX_LENGTH,
  commentText: 5000,
} as const;

export const BLOGS_PAGE_SIZE = 12;
export const MAX_PAGE_SIZE = 100;
export const RECENT_BLOGS_LIMIT = 6;
export const FEATURED_BLOGS_LIMIT = 10;

/** Longest search text taken (a query, not a document); at most SEARCH_MAX_TERMS words of it count. */
export const SEARCH_MAX_LENGTH = 200;
export const SEARCH_MAX_TERMS = 12;

/** The fields a server draft keeps as text, as the canvas sends them and the draft row holds them (docs/decisions/070). */
export const DRAFT_FIELDS = ['title', 'category', 'type', 'short_description', 'long_description', 'details', 'availability', 'photo_focus', 'mail', 'tags'] as const;

/**
 * The versions a post keeps, newest first (docs/decisions/070): its history lists them all, and a
 * save drops what falls beyond, so a post edited daily for years does not keep every version.
 */
export const REVISIONS_KEPT = 100;
