import { Hono } from 'hono';
import { CommentSchema } from '~/features/blogs/blog.schema';
import { deleteComment, editComment } from '~/features/blogs/blog.service.server';
import { type AppDeps, type AppVariables, serviceContext } from '../context.server';
import { parseInput, readJson, requireSignIn } from './http.server';

/** Writers' own tools (issue 19): the author edits a comment; the author or the blog's owner deletes it. */
export function commentsApi(deps: AppDeps) {
  const api = new Hono<{ Variables: AppVariables }>();
  api.put('/comments/:id', async (c) => {
    requireSignIn(c);
    const input = parseInput(CommentSchema, readJson(c));
    return c.json(await editComment(serviceContext(deps, c.get('user')), c.req.param('id'), input));
  });
  api.delete('/comments/:id', async (c) => c.json(await deleteComment(serviceContext(deps, c.get('user')), c.req.param('id'))));
  return api;
}
