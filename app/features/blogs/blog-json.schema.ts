import { z } from 'zod';
import { PHOTO_FOCUS_CHOICES } from '~/features/images/photo-focus';
import { BLOG_AVAILABILITY, BLOG_CATEGORIES, BLOG_TYPES } from './blogs.schema';

/**
 * A blog and a comment as the API answers them (docs/product.md#data, allowlisted): the one source
 * of the contract (docs/decisions/037). The OpenAPI document is generated from these, and the presenter's
 * `BlogJson`/`CommentJson` are their `z.infer`, so a field added to one is in the other or the
 * typecheck fails. Kept apart from blogs.schema so the pages that only show blogs ship no zod
 * for it: the presenter imports types from here, never values.
 */
const text = z.string();
const id = z.string().describe('A blog, comment or wishlist id (UUID)');
const ownEmail = (whose: string) => text.optional().describe(`Only when the caller is ${whose}: nobody else is ever shown an email address`);
const Removal = z.strictObject({ reason: text }).optional().describe('Only to its author, when a moderator removed it: everyone else is not shown it at all');
export const Pending = z.literal(true).optional().describe('Only to its author: a new account’s text with many links waits for a moderator, and nobody else is shown it yet (docs/decisions/029)');

export const CommentResponse = z.strictObject({
  _id: id,
  userName: text.describe("The commenter's current name (read through their id, never a copy)"),
  userPhoto: text.nullable().describe("The commenter's current photo"),
  userEmail: ownEmail('the commenter'),
  isMine: z.boolean().describe('Whether the caller wrote the comment'),
  isAuthor: z.boolean().describe("Whether the blog's writer wrote it (the \"Author\" badge)"),
  remote: z
    .strictObject({ handle: text.describe('`@name@server`'), profileUrl: text.nullable() })
    .optional()
    .describe('Only for a comment from another server (federation): its author is not a local user'),
  commentText: text,
  commentedAt: text,
  edited: z.boolean().describe('Its author changed it after posting'),
  parentId: id.nullable().describe('The comment this one replies to; null: a top-level comment'),
  depth: z.number().int().describe('0 for a top-level comment, 1 for a reply to it, and so on'),
  likes: z.number().int(),
  likedByMe: z.boolean().describe('Whether the caller liked it'),
  pinned: z.boolean().describe("The blog's writer pinned it: it comes first"),
  deleted: z.boolean().describe('Deleted while replies hang under it: shown as "[deleted]", with no author or text'),
  hidden: z.literal(true).optional().describe("Only to its author and the blog's writer: the writer hid it, and nobody else is shown it"),
  removed: Removal,
  pending: Pending,
});

export const BlogResponse = z.strictObject({
  _id: id,
  title: text,
  email: ownEmail("the blog's owner"),
  isOwner: z.boolean().describe("Whether the caller owns the blog (what a client decides by, instead of comparing emails)"),
  name: text.describe("The author's current name (read through their id, never a copy)"),
  category: z.enum(BLOG_CATEGORIES),
  type: z.enum(BLOG_TYPES),
  short_description: text,
  long_description: text.describe('Markdown (GitHub-flavoured)'),
  details: text.nullable(),
  availability: z.enum(BLOG_AVAILABILITY),
  photo: text.nullable(),
  photo_focus: z.enum(PHOTO_FOCUS_CHOICES).describe("The writer's choice of the photo's focus; `auto`: the point found at upload"),
  photo_position: text.nullable().describe('The photo\'s focus as a CSS `object-position` (`"35% 20%"`): what the site uses wherever it crops the photo; null: none known (the site shows `50% 30%`)'),
  createdAt: text.describe('ISO-8601'),
  likes: z.number().int(),
  likedBy: z.array(text).describe("The caller's email when the caller liked it; empty otherwise"),
  views: z.number().int().nullable().describe("Null when its writer keeps her view counts to herself (docs/decisions/069); she still gets the number"),
  slug: text.describe('The readable part of its address, made from the title: the page is /blogs/{_id}/{slug} (/blogs/{_id} answers too)'),
  tags: z.array(text).describe("Its tags in its writer's order; each one's page is /tags/{tag in lower case}"),
  comments: z.array(CommentResponse).optional().describe('Only on GET /api/blogs/{id}: the pinned comment first, then each thread in reading order (a reply right after what it answers)'),
  removed: Removal,
  pending: Pending,
  mail: z.enum(['post', 'teaser']).optional().describe("Only to the blog's owner: what its newsletter and follower mails carry, the whole post or a teaser card"),
  fediverse: z
    .strictObject({ likes: z.number().int().describe('Likes from accounts on other servers'), boosts: z.number().int().describe('Boosts (shares) from accounts on other servers') })
    .optional()
    .describe('Only on GET /api/blogs/{id}, while the site federates and the blog goes out: its likes and boosts from other servers, counted apart from `likes` (docs/decisions/080)'),
  snippet: text.optional().describe('Only with `?q=`: an excerpt of the long description as HTML, the text escaped and the matched words in `<mark>`'),
});
