import { CommentSchema } from '~/features/blogs/blogs.schema';
import { deleteComment, editComment } from '~/features/blogs/blogs.service.server';
import { defineOperation, type Operation } from './endpoints.server';
import { bad, DeletedResponse, denied, MessageResponse, ModifiedResponse } from './responses.server';

/** Writers' own tools: the author edits a comment; the author or the blog's owner deletes it. */
export const COMMENT_OPERATIONS: Operation[] = [
  defineOperation(
    { method: 'put', path: '/api/comments/{id}', tag: 'Comments', auth: 'required', summary: 'Edit one of the caller’s own comments (then shown as edited)', body: CommentSchema, responses: { 200: { description: 'Edited', schema: ModifiedResponse }, ...denied, ...bad, 404: { description: 'No such comment', schema: MessageResponse } } },
    async ({ c, ctx, body, params }) => c.json(await editComment(ctx, params.id, body)),
  ),
  defineOperation(
    { method: 'delete', path: '/api/comments/{id}', tag: 'Comments', auth: 'required', summary: 'Delete a comment: its author, or the owner of the blog it is on', responses: { 200: { description: 'Deleted', schema: DeletedResponse }, ...denied, 404: { description: 'No such comment', schema: MessageResponse } } },
    async ({ c, ctx, params }) => c.json(await deleteComment(ctx, params.id)),
  ),
];
