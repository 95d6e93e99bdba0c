import { Form, Link, useSearchParams } from 'react-router';
import { MESSAGES } from '~/lib/texts/messages';
import type { CommentJson } from '../blogs.presenter';
import { BLOG_LIMITS } from '../blogs.constants';

/** The query parameter that opens a comment's edit form: a link, so it works before JavaScript. */
export const EDIT_COMMENT_PARAM = 'editComment';

/**
 * Edit (its author) and Delete (its author or the blog's owner), as plain forms to the page's
 * action. Edit is a link to this page with `?editComment=<id>`, which renders the form in place:
 * no script is needed to open it, and the comment's text is on the page once until then.
 */
export function OwnCommentTools({ comment, canDelete }: { comment: CommentJson; canDelete: boolean }) {
  const [searchParams] = useSearchParams();
  const editing = comment.isMine && searchParams.get(EDIT_COMMENT_PARAM) === comment._id;
  const anchor = `#comment-${comment._id}`;
  if (!comment.isMine && !canDelete) return null;
  return (
    // Laid out in the comment's row of tools (display: contents), the edit form on a line of its own.
    <div className="contents" data-testid="own-comment-tools">
      {comment.isMine && !editing ? (
        <Link to={`?${new URLSearchParams({ [EDIT_COMMENT_PARAM]: comment._id })}${anchor}`} preventScrollReset className="btn btn-ghost btn-xs" data-testid="edit-comment">
          {MESSAGES.editComment}
        </Link>
      ) : null}
      {editing ? (
        <Form method="post" preventScrollReset className="mt-2 flex w-full flex-col gap-2">
          <input type="hidden" name="intent" value="edit-comment" />
          <input type="hidden" name="commentId" value={comment._id} />
          <label htmlFor={`edit-${comment._id}`} className="text-sm font-semibold">Comment</label>
          <textarea id={`edit-${comment._id}`} name="commentText" rows={3} required maxLength={BLOG_LIMITS.commentText} className="textarea w-full" defaultValue={comment.commentText} />
          <div className="flex gap-2">
            <button type="submit" className="btn btn-primary btn-sm">{MESSAGES.saveComment}</button>
            <Link to={`?${anchor}`} preventScrollReset className="btn btn-ghost btn-sm">{MESSAGES.cancel}</Link>
          </div>
        </Form>
      ) : null}
      {canDelete ? (
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="delete-comment" />
          <input type="hidden" name="commentId" value={comment._id} />
          <button type="submit" className="btn btn-ghost btn-xs">{MESSAGES.deleteComment}</button>
        </Form>
      ) : null}
    </div>
  );
}
