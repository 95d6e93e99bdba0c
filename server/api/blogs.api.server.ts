import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { BlogIdSchema, CommentSchema, CreateBlogSchema, ListBlogsQuerySchema, PageQuerySchema, UpdateBlogSchema } from '~/features/blogs/blog.schema';
import * as blogs from '~/features/blogs/blog.service.server';
import { type AppDeps, type AppVariables, serviceContext } from '../context.server';
import { CONTENT_RATE_LIMITS, rateLimit } from '../middleware/rate-limit.server';
import { parseInput, readJson, requireSignIn, setPageHeaders } from './http.server';


const ID_PARAMS = { id: z.object({ id: BlogIdSchema }), blogId: z.object({ blogId: BlogIdSchema }) };
const blogId = (c: Context, name: 'id' | 'blogId' = 'id'): string =>
  (parseInput(ID_PARAMS[name], { [name]: c.req.param(name) }) as Record<string, string>)[name]!;

/** Spec §7's `/blogs…` calls and `/featuredblogs`; the owner is always the caller, never the payload. */
export function blogsApi(deps: AppDeps) {
  const api = new Hono<{ Variables: AppVariables }>();
  const ctx = (c: Context<{ Variables: AppVariables }>) => serviceContext(deps, c.get('user'));

  api.get('/blogs', async (c) => {
    const query = parseInput(ListBlogsQuerySchema, c.req.query());
    const { blogs: list, total } = await blogs.listBlogs(ctx(c), query);
    setPageHeaders(c, query, total);
    return c.json(list);
  });
  api.get('/recent-blog', async (c) => c.json(await blogs.listRecentBlogs(ctx(c))));
  api.get('/featuredblogs', async (c) => c.json(await blogs.listFeaturedBlogs(ctx(c))));

  // Registered before /blogs/:id/… so "liked" is never read as an id.
  api.get('/blogs/liked/:email', async (c) => {
    const page = parseInput(PageQuerySchema, c.req.query());
    const { items, total } = await blogs.listLikedBlogs(ctx(c), c.req.param('email'), page);
    setPageHeaders(c, page, total);
    return c.json(items);
  });
  api.patch('/blogs/liked/:blogId', async (c) => {
    const { modifiedCount } = await blogs.likeBlog(ctx(c), blogId(c, 'blogId'));
    return c.json({ modifiedCount });
  });
  api.delete('/blogs/liked/:blogId', async (c) => {
    const { modifiedCount } = await blogs.unlikeBlog(ctx(c), blogId(c, 'blogId'));
    return c.json({ modifiedCount });
  });

  api.get('/blogs/:id', async (c) => c.json(await blogs.getBlog(ctx(c), blogId(c))));
  api.patch('/blogs/:id/view', rateLimit({ store: deps.rateLimits, log: deps.log, ...CONTENT_RATE_LIMITS.view }), async (c) => {
    const client = { address: c.get('clientIp'), userAgent: c.req.header('user-agent') ?? '' };
    return c.json(await blogs.recordView(ctx(c), blogId(c), client, deps.views));
  });
  api.patch('/blogs/:id', rateLimit({ store: deps.rateLimits, log: deps.log, ...CONTENT_RATE_LIMITS.comment }), async (c) => {
    requireSignIn(c);
    const id = blogId(c);
    const input = parseInput(CommentSchema, readJson(c));
    return c.json(await blogs.addComment(ctx(c), id, input));
  });
  api.post('/blogs', async (c) => {
    requireSignIn(c);
    const input = parseInput(CreateBlogSchema, readJson(c));
    return c.json(await blogs.createBlog(ctx(c), input), 201);
  });
  api.put('/blogs/:id', async (c) => {
    requireSignIn(c);
    const id = blogId(c);
    const input = parseInput(UpdateBlogSchema, readJson(c));
    return c.json(await blogs.updateBlog(ctx(c), id, input));
  });
  api.delete('/blogs/:id', async (c) => c.json(await blogs.deleteBlog(ctx(c), blogId(c))));

  return api;
}
