import { z } from 'zod';
import { PHOTO_FOCUS_CHOICES } from '~/features/images/photo-focus';
import { PhotoUrlSchema } from '~/features/images/photo-url.schema';
import { TagsSchema } from '~/features/tags/tags.schema';
import { MESSAGES } from '~/lib/texts/messages';
import {
  BLOG_AVAILABILITY,
  BLOG_CATEGORIES,
  BLOG_LIMITS,
  BLOG_TYPES,
  BLOGS_PAGE_SIZE,
  MAX_PAGE_SIZE,
  SEARCH_MAX_LENGTH,
  SEARCH_MAX_TERMS,
} from './blogs.constants';

export * from './blogs.constants';

const required = MESSAGES.fieldRequired;
const text = (max: number) =>
  z
    .string({ message: required })
    .trim()
    .min(1, required)
    .max(max, `Must be at most ${max.toLocaleString('en')} characters`);
/** A dropdown's error reads as a sentence a writer can act on; the allowed values are in the OpenAPI document. */
const choice = <T extends readonly [string, ...string[]]>(values: T, message: string) => z.enum(values, { message });
const CHOOSE = { category: 'Choose a category.', type: 'Choose a type.', availability: 'Choose Public or Hidden.', photoFocus: 'Choose where the photo is kept when it is cropped.' } as const;

/** The photo's focus (decision 040): one of nine positions, or `auto` for the point the pipeline found. */
export const PhotoFocusSchema = choice(PHOTO_FOCUS_CHOICES, CHOOSE.photoFocus).describe(
  'Which part of the photo stays in view when it is cropped (cards, the blog page): `auto` (the point the image pipeline found when the photo was uploaded) or one of nine positions. Absent: `auto` on create, unchanged on update',
);

const optionalDetails = z
  .string()
  .trim()
  .max(BLOG_LIMITS.details, `Must be at most ${BLOG_LIMITS.details.toLocaleString('en')} characters`)
  .optional();

/** What a post's mails carry (docs/decisions/066). */
export const BLOG_MAIL_CHOICES = ['post', 'teaser'] as const;

/**
 * Fields of a blog as a writer sends them (POST /blogs in docs/product.md#the-api). `email`, `Name`/`name`
 * and `createdAt` may be present in that payload but are never trusted: the owner and the time
 * come from the session and the clock (docs/product.md#server-side-rules), so they are not part of the schema.
 */
export const CreateBlogSchema = z.object({
  title: text(BLOG_LIMITS.title),
  category: choice(BLOG_CATEGORIES, CHOOSE.category),
  type: choice(BLOG_TYPES, CHOOSE.type),
  short_description: text(BLOG_LIMITS.short_description),
  long_description: text(BLOG_LIMITS.long_description),
  details: optionalDetails,
  availability: choice(BLOG_AVAILABILITY, CHOOSE.availability),
  photo: PhotoUrlSchema.describe(
    'The photo: an image URL answered by `POST /api/images`, or any public http(s) address of a JPEG, PNG, WebP or GIF image, which the server fetches once and stores as its own (the blog then names our copy); one it cannot fetch is a 400 on `photo`',
  ),
  photo_focus: PhotoFocusSchema.optional(),
  mail: z
    .enum(BLOG_MAIL_CHOICES, 'Choose the whole post or a teaser.')
    .optional()
    .describe('What newsletter and follower mails of this post carry: `post` (the default) the whole post, `teaser` a card with the summary and a link'),
  tags: TagsSchema.optional(),
});
export type CreateBlogInput = z.infer<typeof CreateBlogSchema>;

/** On update no field is required (docs/product.md#validation); the photo is kept when absent. */
export const UpdateBlogSchema = CreateBlogSchema.partial();
export type UpdateBlogInput = z.infer<typeof UpdateBlogSchema>;

/** The form's fields without the photo (the form sends a file or an uploaded URL instead). */
export const BlogFormSchema = CreateBlogSchema.omit({ photo: true });

/** What the writing form's Preview tab sends: the body alone (routes/blog-preview). */
export const PreviewSchema = z.object({
  long_description: z.string().max(BLOG_LIMITS.long_description, `Must be at most ${BLOG_LIMITS.long_description.toLocaleString('en')} characters`),
});
export type PreviewInput = z.infer<typeof PreviewSchema>;

/** PATCH /blogs/{id} (docs/product.md#the-api): only the text is taken; the author is the caller. */
export const CommentSchema = z.object({
  commentText: text(BLOG_LIMITS.commentText),
});
export type CommentInput = z.infer<typeof CommentSchema>;

/** Blog ids are UUIDs (lib/ids.server); anything else is a bad request, not a lookup. */
export const BlogIdSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'Invalid id');

const pageNumber = z.coerce.number({ message: 'Must be a whole number' }).int('Must be a whole number').min(1, 'Must be at least 1');

/**
 * The words of a search, without any query syntax: letters and digits only, so quotes, `*`,
 * `-`, `:`, NEAR or parentheses typed by a visitor are plain separators and can never form an
 * FTS5 or tsquery expression (docs/decisions/012-full-text-search.md). Empty: no search.
 */
export function searchTerms(q: string | undefined): string[] {
  if (!q) return [];
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, SEARCH_MAX_TERMS);
}

const searchText = z
  .string()
  .max(SEARCH_MAX_LENGTH, `Must be at most ${SEARCH_MAX_LENGTH} characters`)
  .optional()
  .transform((v) => v?.trim() || undefined)
  .describe('Full-text search over title, short and long description; results ranked, each with a `snippet`');

export const ListBlogsQuerySchema = z.object({
  q: searchText,
  search: z
    .union([choice(BLOG_CATEGORIES, CHOOSE.category), z.literal('')])
    .optional()
    .transform((v) => (v ? v : undefined)),
  page: pageNumber.default(1),
  limit: pageNumber.max(MAX_PAGE_SIZE, `Must be at most ${MAX_PAGE_SIZE}`).default(BLOGS_PAGE_SIZE),
});
export type ListBlogsQuery = z.infer<typeof ListBlogsQuerySchema>;

export const PageQuerySchema = ListBlogsQuerySchema.pick({ page: true, limit: true });
export type PageQuery = z.infer<typeof PageQuerySchema>;

export { fieldErrors } from '~/lib/core/validation';
