import { z } from 'zod';
import { CommentResponse, Pending } from '~/features/blogs/blog-json.schema';
import { CommentSchema } from '~/features/blogs/blogs.schema';
import { deleteComment, editComment, listThread, replyToComment, setCommentHidden, setCommentLiked, setCommentPinned } from '~/features/blogs/comments.service.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineOperation, type Operation } from './endpoints.server';
import { bad, DeletedResponse, denied, MessageResponse, ModifiedResponse } from './responses.server';

const id = z.string().describe('A blog, comment or wishlist id (UUID)');
const ReplyPostedResponse = z.strictObject({ success: z.boolean(), insertedId: id.optional().describe('The new reply'), pending: Pending });
const ThreadResponse = z.strictObject({
  blogId: id,
  blogPath: z.string().describe("The blog's page as it reads now, `/blogs/{blogId}/{slug}`"),
  isOwner: z.boolean().describe('Whether the caller wrote the blog (may pin and hide)'),
  comments: z.array(CommentResponse).describe('The comment first, then every reply under it the caller may see, each right after what it answers'),
});
const CommentLikedResponse = z.strictObject({ modifiedCount: z.number().int(), likes: z.number().int() });
const noComment = { 404: { description: 'No such comment', schema: MessageResponse } };

/**
 * Comments and their threads (docs/decisions/060): the author edits or deletes a comment (the
 * blog's owner deletes too); anyone signed in replies and likes; the blog's writer pins and hides.
 */
export const COMMENT_OPERATIONS: Operation[] = [
  defineOperation(
    { method: 'put', path: '/api/comments/{id}', tag: 'Comments', auth: 'required', summary: 'Edit one of the caller’s own comments (then shown as edited)', body: CommentSchema, responses: { 200: { description: 'Edited', schema: ModifiedResponse }, ...denied, ...bad, ...noComment } },
    async ({ c, ctx, body, params }) => c.json(await editComment(ctx, params.id, body)),
  ),
  defineOperation(
    { method: 'delete', path: '/api/comments/{id}', tag: 'Comments', auth: 'required', summary: 'Delete a comment: its author, or the owner of the blog it is on (one with replies stays as "[deleted]")', responses: { 200: { description: 'Deleted', schema: DeletedResponse }, ...denied, ...noComment } },
    async ({ c, ctx, params }) => c.json(await deleteComment(ctx, params.id)),
  ),
  defineOperation(
    { method: 'post', path: '/api/comments/{id}/replies', limit: RATE_LIMITS.comment, tag: 'Comments', auth: 'required', summary: 'Reply to a comment anyone can see (the blog’s writer too); the author is the caller (`pending`: it waits for a moderator)', body: CommentSchema, responses: { 200: { description: 'Posted', schema: ReplyPostedResponse }, ...denied, ...bad, ...noComment, 409: { description: 'Hidden, removed or waiting: it takes no replies', schema: MessageResponse } } },
    async ({ c, ctx, body, params }) => c.json(await replyToComment(ctx, params.id, body)),
  ),
  defineOperation(
    { method: 'get', path: '/api/comments/{id}/thread', tag: 'Comments', auth: 'optional', summary: 'A comment and the replies under it (its "Continue this thread" page)', responses: { 200: { description: 'The thread', schema: ThreadResponse }, ...noComment } },
    async ({ c, ctx, params }) => c.json(await listThread(ctx, params.id)),
  ),
  defineOperation(
    { method: 'post', path: '/api/comments/{id}/like', tag: 'Comments', auth: 'required', summary: 'Like someone else’s comment: `modifiedCount` 1, or 0 when already liked', responses: { 200: { description: 'Liked', schema: CommentLikedResponse }, ...denied, ...noComment } },
    async ({ c, ctx, params }) => c.json(await setCommentLiked(ctx, params.id, true)),
  ),
  defineOperation(
    { method: 'delete', path: '/api/comments/{id}/like', tag: 'Comments', auth: 'required', summary: 'Take a like on a comment back', responses: { 200: { description: 'Unliked', schema: CommentLikedResponse }, ...denied, ...noComment } },
    async ({ c, ctx, params }) => c.json(await setCommentLiked(ctx, params.id, false)),
  ),
  defineOperation(
    { method: 'post', path: '/api/comments/{id}/pin', tag: 'Comments', auth: 'required', summary: 'The blog’s writer pins a top-level comment: it comes first (any other is unpinned)', responses: { 200: { description: 'Pinned (modifiedCount 0: already)', schema: ModifiedResponse }, ...denied, 400: { description: 'A reply cannot be pinned', schema: MessageResponse }, ...noComment, 409: { description: 'A hidden comment cannot be pinned', schema: MessageResponse } } },
    async ({ c, ctx, params }) => c.json(await setCommentPinned(ctx, params.id, true)),
  ),
  defineOperation(
    { method: 'delete', path: '/api/comments/{id}/pin', tag: 'Comments', auth: 'required', summary: 'The blog’s writer unpins a comment', responses: { 200: { description: 'Unpinned (modifiedCount 0: was not)', schema: ModifiedResponse }, ...denied, ...noComment } },
    async ({ c, ctx, params }) => c.json(await setCommentPinned(ctx, params.id, false)),
  ),
  defineOperation(
    { method: 'post', path: '/api/comments/{id}/hide', tag: 'Comments', auth: 'required', summary: 'The blog’s writer hides a comment on her post: gone for everyone but her and its author (replies under it too)', responses: { 200: { description: 'Hidden (modifiedCount 0: already)', schema: ModifiedResponse }, ...denied, ...noComment } },
    async ({ c, ctx, params }) => c.json(await setCommentHidden(ctx, params.id, true)),
  ),
  defineOperation(
    { method: 'delete', path: '/api/comments/{id}/hide', tag: 'Comments', auth: 'required', summary: 'The blog’s writer shows a hidden comment again', responses: { 200: { description: 'Shown (modifiedCount 0: was not hidden)', schema: ModifiedResponse }, ...denied, ...noComment } },
    async ({ c, ctx, params }) => c.json(await setCommentHidden(ctx, params.id, false)),
  ),
];
