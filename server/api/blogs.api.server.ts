import { z } from 'zod';
import { BlogIdSchema, type CommentInput, type CreateBlogInput, type ListBlogsQuery, type PageQuery, type UpdateBlogInput } from '~/features/blogs/blogs.schema';
import * as blogs from '~/features/blogs/blogs.service.server';
import type { ApiContext, Handlers } from './endpoints.server';
import { parseInput, setPageHeaders } from './handlers.server';

const ID_PARAMS = { id: z.object({ id: BlogIdSchema }), blogId: z.object({ blogId: BlogIdSchema }) };
const blogId = (c: ApiContext, name: 'id' | 'blogId' = 'id'): string =>
  (parseInput(ID_PARAMS[name], { [name]: c.req.param(name) }) as Record<string, string>)[name]!;

/** The `/blogs…` calls and `/featuredblogs` (docs/product.md#the-api); the owner is always the caller, never the payload. Declared in openapi.server.ts. */
export const BLOG_HANDLERS: Handlers = {
  'get /api/blogs': async ({ c, ctx, query }) => {
    const page = query as ListBlogsQuery;
    const { blogs: list, total } = await blogs.listBlogs(ctx, page);
    setPageHeaders(c, page, total);
    return c.json(list);
  },
  'get /api/recent-blog': async ({ c, ctx }) => c.json(await blogs.listRecentBlogs(ctx)),
  'get /api/featuredblogs': async ({ c, ctx }) => c.json(await blogs.listFeaturedBlogs(ctx)),
  'get /api/blogs/liked/{email}': async ({ c, ctx, query }) => {
    const page = query as PageQuery;
    const { items, total } = await blogs.listLikedBlogs(ctx, c.req.param('email') ?? '', page);
    setPageHeaders(c, page, total);
    return c.json(items);
  },
  'patch /api/blogs/liked/{blogId}': async ({ c, ctx }) => c.json({ modifiedCount: (await blogs.likeBlog(ctx, blogId(c, 'blogId'))).modifiedCount }),
  'delete /api/blogs/liked/{blogId}': async ({ c, ctx }) => c.json({ modifiedCount: (await blogs.unlikeBlog(ctx, blogId(c, 'blogId'))).modifiedCount }),
  'get /api/blogs/{id}': async ({ c, ctx }) => c.json(await blogs.getBlog(ctx, blogId(c))),
  'patch /api/blogs/{id}/view': async ({ c, ctx, deps }) => {
    const client = { address: ctx.clientIp, userAgent: c.req.header('user-agent') ?? '' };
    return c.json(await blogs.recordView(ctx, blogId(c), client, deps.views));
  },
  'patch /api/blogs/{id}': async ({ c, ctx, body }) => c.json(await blogs.addComment(ctx, blogId(c), body as CommentInput)),
  'post /api/blogs': async ({ c, ctx, body }) => c.json(await blogs.createBlog(ctx, body as CreateBlogInput), 201),
  'put /api/blogs/{id}': async ({ c, ctx, body }) => c.json(await blogs.updateBlog(ctx, blogId(c), body as UpdateBlogInput)),
  'delete /api/blogs/{id}': async ({ c, ctx }) => c.json(await blogs.deleteBlog(ctx, blogId(c))),
};
