import type { CommentInput } from '~/features/blogs/blogs.schema';
import { deleteComment, editComment, listThread, replyToComment, setCommentHidden, setCommentLiked, setCommentPinned } from '~/features/blogs/comments.service.server';
import type { ApiContext, Handlers } from './endpoints.server';

const commentId = (c: ApiContext) => c.req.param('id') ?? '';

/**
 * Comments and their threads (docs/decisions/060): the author edits or deletes a comment (the
 * blog's owner deletes too); anyone signed in replies and likes; the blog's writer pins and hides.
 */
export const COMMENT_HANDLERS: Handlers = {
  'put /api/comments/{id}': async ({ c, ctx, body }) => c.json(await editComment(ctx, commentId(c), body as CommentInput)),
  'delete /api/comments/{id}': async ({ c, ctx }) => c.json(await deleteComment(ctx, commentId(c))),
  'post /api/comments/{id}/replies': async ({ c, ctx, body }) => c.json(await replyToComment(ctx, commentId(c), body as CommentInput)),
  'get /api/comments/{id}/thread': async ({ c, ctx }) => c.json(await listThread(ctx, commentId(c))),
  'post /api/comments/{id}/like': async ({ c, ctx }) => c.json(await setCommentLiked(ctx, commentId(c), true)),
  'delete /api/comments/{id}/like': async ({ c, ctx }) => c.json(await setCommentLiked(ctx, commentId(c), false)),
  'post /api/comments/{id}/pin': async ({ c, ctx }) => c.json(await setCommentPinned(ctx, commentId(c), true)),
  'delete /api/comments/{id}/pin': async ({ c, ctx }) => c.json(await setCommentPinned(ctx, commentId(c), false)),
  'post /api/comments/{id}/hide': async ({ c, ctx }) => c.json(await setCommentHidden(ctx, commentId(c), true)),
  'delete /api/comments/{id}/hide': async ({ c, ctx }) => c.json(await setCommentHidden(ctx, commentId(c), false)),
};
