import { z } from 'zod';
import { BlogResponse, Pending } from '~/features/blogs/blog-json.schema';
import { BlogIdSchema, CommentSchema, CreateBlogSchema, ListBlogsQuerySchema, PageQuerySchema, UpdateBlogSchema } from '~/features/blogs/blogs.schema';
import * as blogs from '~/features/blogs/blogs.service.server';
import { fediverseReactionsOf } from '~/features/federation/handles.service.server';
import { DraftIdSchema, DraftSchema } from '~/features/blogs/drafts.schema';
import * as drafts from '~/features/blogs/drafts.service.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineOperation, type Operation } from './endpoints.server';
import { setPageHeaders } from './handlers.server';
import { bad, DeletedResponse, denied, InsertedResponse, LikedItemResponse, MessageResponse, missing, ModifiedResponse } from './responses.server';

const ID = z.object({ id: BlogIdSchema });
const BLOG_ID = z.object({ blogId: BlogIdSchema });
const CommentPostedResponse = z.strictObject({ success: z.boolean(), pending: Pending });

/** The `/blogs…` calls and `/featuredblogs` (docs/product.md#the-api); the owner is always the caller, never the payload. */
export const BLOG_OPERATIONS: Operation[] = [
  defineOperation(
    { method: 'get', path: '/api/blogs', cache: 'lists', tag: 'Blogs', auth: 'optional', summary: 'Blogs, newest first; `search` filters by category; `q` searches title, short and long description (best match first, with a `snippet`). Public blogs, plus the caller’s own Hidden ones', query: ListBlogsQuerySchema, responses: { 200: { description: 'A page of blogs', schema: BlogResponse, list: true, paged: true }, ...bad } },
    async ({ c, ctx, query }) => {
      const { blogs: list, total } = await blogs.listBlogs(ctx, query);
      setPageHeaders(c, query, total);
      return c.json(list);
    },
  ),
  defineOperation(
    { method: 'post', path: '/api/blogs', limit: RATE_LIMITS.blogWrite, tag: 'Blogs', auth: 'required', summary: 'Write a blog; the owner is the caller (`email`, `Name` in the body are ignored)', body: CreateBlogSchema, responses: { 201: { description: 'Created', schema: InsertedResponse }, ...denied, ...bad } },
    async ({ c, ctx, body }) => c.json(await blogs.createBlog(ctx, body), 201),
  ),
  defineOperation(
    { method: 'get', path: '/api/recent-blog', cache: 'lists', tag: 'Blogs', auth: 'optional', summary: 'The 6 newest public blogs', responses: { 200: { description: 'Blogs', schema: BlogResponse, list: true } } },
    async ({ c, ctx }) => c.json(await blogs.listRecentBlogs(ctx)),
  ),
  defineOperation(
    { method: 'get', path: '/api/featuredblogs', cache: 'lists', tag: 'Blogs', auth: 'optional', summary: 'The 10 public blogs with the most likes (ties: views, then newest)', responses: { 200: { description: 'Blogs', schema: BlogResponse, list: true } } },
    async ({ c, ctx }) => c.json(await blogs.listFeaturedBlogs(ctx)),
  ),
  defineOperation(
    { method: 'get', path: '/api/blogs/{id}', params: ID, cache: 'blog', tag: 'Blogs', auth: 'optional', summary: 'One blog with its comments', responses: { 200: { description: 'The blog', schema: BlogResponse }, ...bad, ...missing } },
    async ({ c, ctx, params }) => {
      const [blog, fediverse] = await Promise.all([blogs.getBlog(ctx, params.id), fediverseReactionsOf(ctx, params.id)]);
      return c.json(fediverse ? { ...blog, fediverse } : blog);
    },
  ),
  defineOperation(
    { method: 'put', path: '/api/blogs/{id}', params: ID, limit: RATE_LIMITS.blogWrite, tag: 'Blogs', auth: 'required', summary: 'Update a blog (owner only); the photo is kept when absent', body: UpdateBlogSchema, responses: { 200: { description: 'Updated', schema: ModifiedResponse }, ...denied, ...bad, ...missing } },
    async ({ c, ctx, body, params }) => c.json(await blogs.updateBlog(ctx, params.id, body)),
  ),
  defineOperation(
    { method: 'patch', path: '/api/blogs/{id}', params: ID, limit: RATE_LIMITS.comment, tag: 'Comments', auth: 'required', summary: "Comment on someone else's blog; the author is the caller (`pending`: it waits for a moderator, see the spam hold)", body: CommentSchema, responses: { 200: { description: 'Posted', schema: CommentPostedResponse }, ...denied, ...bad, ...missing } },
    async ({ c, ctx, body, params }) => c.json(await blogs.addComment(ctx, params.id, body)),
  ),
  defineOperation(
    { method: 'delete', path: '/api/blogs/{id}', params: ID, tag: 'Blogs', auth: 'required', summary: 'Delete a blog (owner only) with its comments, likes and wishlist rows', responses: { 200: { description: 'Deleted', schema: DeletedResponse }, ...denied, ...bad, ...missing } },
    async ({ c, ctx, params }) => c.json(await blogs.deleteBlog(ctx, params.id)),
  ),
  defineOperation(
    { method: 'patch', path: '/api/blogs/{id}/view', params: ID, limit: RATE_LIMITS.view, tag: 'Blogs', auth: 'optional', summary: 'Count one view (the browser sends it once per blog; the server counts a visitor once per blog a day: a repeat answers modifiedCount 0; written within seconds, shown within 30 s)', responses: { 200: { description: 'Counted', schema: ModifiedResponse }, ...bad, ...missing, 429: { description: 'Too many views from this client', schema: MessageResponse } } },
    async ({ c, ctx, deps, params }) => {
      const client = { address: ctx.clientIp, userAgent: c.req.header('user-agent') ?? '' };
      return c.json(await blogs.recordView(ctx, params.id, client, deps.views));
    },
  ),
  defineOperation(
    { method: 'patch', path: '/api/blogs/liked/{blogId}', params: BLOG_ID, tag: 'Likes', auth: 'required', summary: 'Like a blog: `modifiedCount` 1, or 0 when already liked', responses: { 200: { description: 'Liked', schema: ModifiedResponse }, ...denied, ...bad, ...missing } },
    async ({ c, ctx, params }) => c.json({ modifiedCount: (await blogs.likeBlog(ctx, params.blogId)).modifiedCount }),
  ),
  defineOperation(
    { method: 'delete', path: '/api/blogs/liked/{blogId}', params: BLOG_ID, tag: 'Likes', auth: 'required', summary: 'Take a like back', responses: { 200: { description: 'Unliked', schema: ModifiedResponse }, ...denied, ...bad, ...missing } },
    async ({ c, ctx, params }) => c.json({ modifiedCount: (await blogs.unlikeBlog(ctx, params.blogId)).modifiedCount }),
  ),
  defineOperation(
    { method: 'get', path: '/api/blogs/liked/{email}', tag: 'Likes', auth: 'required', summary: "The caller's own likes", query: PageQuerySchema, responses: { 200: { description: 'Likes', schema: LikedItemResponse, list: true, paged: true }, ...denied, ...bad } },
    async ({ c, ctx, query, params }) => {
      const { items, total } = await blogs.listLikedBlogs(ctx, params.email, query);
      setPageHeaders(c, query, total);
      return c.json(items);
    },
  ),
];

const DraftSavedResponse = z.strictObject({ id: BlogIdSchema, savedAt: z.string() });

/** The writing canvas's drafts (docs/decisions/070): the caller's own, never public. */
export const DRAFT_OPERATIONS: Operation[] = [
  defineOperation(
    { method: 'put', path: '/api/drafts/{id}', params: DraftIdSchema, tag: 'Drafts', auth: 'required', summary: 'Save a draft under an id the client made (the first save makes it); any field may be empty. With `blogId`, an edit of that post (one draft per post: the answer names the draft saved)', body: DraftSchema, responses: { 200: { description: 'Saved', schema: DraftSavedResponse }, ...denied, ...bad, ...missing } },
    async ({ c, ctx, body, params }) => c.json(await drafts.saveDraft(ctx, params.id, body)),
  ),
  defineOperation(
    { method: 'delete', path: '/api/drafts/{id}', params: DraftIdSchema, tag: 'Drafts', auth: 'required', summary: 'Throw a draft away (a scheduled one is not published)', responses: { 200: { description: 'Deleted', schema: DeletedResponse }, ...denied, ...bad, ...missing } },
    async ({ c, ctx, params }) => c.json(await drafts.discardDraft(ctx, params.id)),
  ),
];
