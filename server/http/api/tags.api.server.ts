import { z } from 'zod';
import { BlogResponse } from '~/features/blogs/blog-json.schema';
import { PageQuerySchema } from '~/features/blogs/blogs.schema';
import * as blogs from '~/features/blogs/blogs.service.server';
import { TagResponse, TagSuggestQuerySchema } from '~/features/tags/tags.schema';
import * as tags from '~/features/tags/tags.service.server';
import { defineOperation, type Operation } from './endpoints.server';
import { setPageHeaders } from './handlers.server';
import { bad, missing } from './responses.server';

const TAG = z.object({ tag: z.string().max(200).describe('The tag, in any case') });

/** Tags (docs/decisions/069): suggestions for the writing form, and a tag's posts. */
export const TAG_OPERATIONS: Operation[] = [
  defineOperation(
    { method: 'get', path: '/api/tags', cache: 'lists', tag: 'Tags', auth: 'optional', summary: 'Tags on public posts that begin with `prefix`, most used first (at most 8): what the tags field suggests', query: TagSuggestQuerySchema, responses: { 200: { description: 'Tags', schema: TagResponse, list: true }, ...bad } },
    async ({ c, ctx, query }) => c.json(await tags.suggestTags(ctx, query.prefix)),
  ),
  defineOperation(
    { method: 'get', path: '/api/tags/{tag}/blogs', params: TAG, cache: 'lists', tag: 'Tags', auth: 'optional', summary: 'The posts carrying a tag, newest first: public ones, plus the caller’s own Hidden ones', query: PageQuerySchema, responses: { 200: { description: 'A page of blogs', schema: BlogResponse, list: true, paged: true }, ...bad, ...missing } },
    async ({ c, ctx, query, params }) => {
      const tag = await tags.getTag(ctx, params.tag);
      const { blogs: list, total } = await blogs.listBlogs(ctx, { ...query, tag: tag.key });
      setPageHeaders(c, query, total);
      return c.json(list);
    },
  ),
];
