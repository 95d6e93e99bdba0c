import type { CommentInput } from '~/features/blogs/blogs.schema';
import { deleteComment, editComment } from '~/features/blogs/blogs.service.server';
import type { Handlers } from './endpoints.server';

/** Writers' own tools (docs/product.md#community-features): the author edits a comment; the author or the blog's owner deletes it. */
export const COMMENT_HANDLERS: Handlers = {
  'put /api/comments/{id}': async ({ c, ctx, body }) => c.json(await editComment(ctx, c.req.param('id') ?? '', body as CommentInput)),
  'delete /api/comments/{id}': async ({ c, ctx }) => c.json(await deleteComment(ctx, c.req.param('id') ?? '')),
};
