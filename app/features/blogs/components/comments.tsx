import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Form, Link, useLocation, useNavigation, useSearchParams, useSubmit } from 'react-router';
import { Avatar } from '~/components/avatar';
import { useFeedback } from '~/components/feedback';
import { useFocusFirstInvalid } from '~/components/use-focus-first-invalid';
import { lazy } from '~/lib/lazy';
import { loginPath } from '~/lib/login-path';
import { MESSAGES } from '~/lib/messages';
import type { CommentJson } from '../blogs.presenter';
import { BLOG_LIMITS } from '../blogs.constants';
import { LocalTime } from '~/components/local-format';
import { SignedOutNotice } from '~/components/signed-out-notice';
import { RemovedNotice, WaitingNotice } from '~/features/moderation/components/removed-notice';
import { ReportButton } from '~/features/moderation/components/report-button';

/**
 * The comment form's schema (and zod, 23 KB gzipped) loads when a reader starts on the form, not
 * with every blog page (docs/decisions/038). A comment sent before it is there waits for it, is
 * checked, then sent (without JavaScript the server checks it with the same schema).
 */
const loadSchema = lazy(() => import('../blogs.schema'));
let commentSchema: Awaited<ReturnType<typeof loadSchema>> | undefined;
const prepareSchema = () => void loadSchema().then((module) => (commentSchema = module), () => {});

export interface CommentsActionData {
  intent: 'comment';
  fieldError?: string;
  /** The product's refusal ('You can't comment on your own post 😥') or 'Failed to comment 😥'. */
  error?: string;
  /** What was typed, shown again when the post failed (the session had ended). */
  values?: { commentText: string };
  /** Set when the session had ended: the login page, returning to the comments. */
  signIn?: string;
}

export interface CommentsProps {
  comments: CommentJson[];
  isOwner: boolean;
  /** Visitors see "Log in to comment"; signed-in readers may report others' comments. */
  signedIn: boolean;
  actionData?: CommentsActionData;
}

/** The query parameter that opens a comment's edit form: a link, so it works before JavaScript. */
export const EDIT_COMMENT_PARAM = 'editComment';

/**
 * Edit (its author) and Delete (its author or the blog's owner), as plain forms to the page's
 * action. Edit is a link to this page with `?editComment=<id>`, which renders the form in place:
 * no script is needed to open it, and the comment's text is on the page once until then.
 */
function OwnCommentTools({ comment, canDelete }: { comment: CommentJson; canDelete: boolean }) {
  const [searchParams] = useSearchParams();
  const editing = comment.isMine && searchParams.get(EDIT_COMMENT_PARAM) === comment._id;
  const anchor = `#comment-${comment._id}`;
  if (!comment.isMine && !canDelete) return null;
  return (
    <div className="mt-2 flex flex-wrap items-start gap-2">
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

/** 'Leave a Comment' and the comments list (docs/product.md#blog-detail). Posts to the detail route's action. */
export function Comments({ comments, isOwner, signedIn, actionData }: CommentsProps) {
  const location = useLocation();
  const { dialog } = useFeedback();
  const navigation = useNavigation();
  // A new object per failed attempt, so each one moves focus back to the field.
  const [invalid, setInvalid] = useState(actionData?.fieldError ? { commentText: actionData.fieldError } : null);
  const fieldError = invalid?.commentText;
  const submitting = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'comment';
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, invalid);

  useEffect(() => setInvalid(actionData?.fieldError ? { commentText: actionData.fieldError } : null), [actionData]);
  useEffect(() => {
    if (actionData?.error) void dialog({ title: actionData.error, kind: 'error' });
  }, [actionData, dialog]);

  const submit = useSubmit();
  function valid(form: HTMLFormElement, schema: NonNullable<typeof commentSchema>): boolean {
    const parsed = schema.CommentSchema.safeParse({ commentText: new FormData(form).get('commentText') });
    setInvalid(parsed.success ? null : { commentText: schema.fieldErrors(parsed.error).commentText ?? '' });
    return parsed.success;
  }
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    if (commentSchema) {
      if (!valid(form, commentSchema)) event.preventDefault();
      return;
    }
    // Sent at once after the reader reached the form: check it when the schema is here.
    event.preventDefault();
    void loadSchema().then(
      (schema) => {
        commentSchema = schema;
        if (valid(form, schema)) void submit(form, { preventScrollReset: true });
      },
      () => void submit(form, { preventScrollReset: true }),
    );
  }

  return (
    <section id="comments" className="mt-12" aria-labelledby="comments-heading">
      <h2 id="comments-heading" className="text-2xl font-bold">{MESSAGES.leaveComment}</h2>
      {isOwner ? (
        // The writer is told the refusal where the form would be (docs/product.md#validation), instead of a
        // form that could only be refused.
        <>
          <p className="mt-4 rounded-box bg-base-200 p-4" data-testid="comment-own">{MESSAGES.cantCommentOwn}</p>
          {actionData?.error && actionData.error !== MESSAGES.cantCommentOwn ? <p role="alert" className="mt-2 text-sm text-error">{actionData.error}</p> : null}
        </>
      ) : !signedIn && !actionData?.signIn ? (
        <p className="mt-4 rounded-box bg-base-200 p-4" data-testid="comment-login">
          <Link className="link link-primary font-semibold" to={loginPath(`${location.pathname}#comments`)}>
            Log in to comment
          </Link>
        </p>
      ) : (
        <Form ref={formRef} method="post" preventScrollReset onSubmit={onSubmit} onFocus={prepareSchema} onPointerEnter={prepareSchema} className="mt-4 flex flex-col gap-3" noValidate>
          <input type="hidden" name="intent" value="comment" />
          <label htmlFor="commentText" className="block font-semibold">Comment</label>
          <textarea
            key={comments.length}
            id="commentText"
            name="commentText"
            rows={3}
            required
            maxLength={BLOG_LIMITS.commentText}
            className="textarea w-full"
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? 'commentText-error' : undefined}
            defaultValue={actionData?.values?.commentText}
          />
          {fieldError ? <p id="commentText-error" className="text-sm text-error">{fieldError}</p> : null}
          {actionData?.error ? (
            <p role="alert" className="text-sm text-error">
              {actionData.error}
              {actionData.signIn ? (
                <>
                  {' '}
                  <SignedOutNotice signIn={actionData.signIn} />
                </>
              ) : null}
            </p>
          ) : null}
          <div>
            <button type="submit" className="btn btn-primary" disabled={submitting}>
              Post Comment
            </button>
          </div>
        </Form>
      )}

      {comments.length === 0 ? (
        <p className="mt-8 opacity-85">{MESSAGES.noComments}</p>
      ) : (
        <ol className="mt-8 flex flex-col gap-4" aria-label="Comments" data-testid="comments">
          {comments.map((comment, index) => (
            <li key={`${comment.commentedAt}-${index}`} id={`comment-${comment._id}`} className="flex gap-3 rounded-box bg-base-200 p-4">
              <Avatar src={comment.userPhoto} alt="" size={40} />
              <div className="min-w-0 flex-1">
                {/* Report sits on the name's line, so the text below keeps the card's whole width on a phone. */}
                <div className="flex items-start justify-between gap-2">
                  <p className="font-semibold">
                    {comment.userName}{' '}
                    <span className="whitespace-nowrap text-sm font-normal opacity-75">
                      <LocalTime iso={comment.commentedAt} withTime />
                      {comment.edited ? ` · ${MESSAGES.edited}` : null}
                    </span>
                  </p>
                  {signedIn && !comment.isMine ? (
                    <div className="shrink-0">
                      <ReportButton targetType="comment" targetId={comment._id} label={`${MESSAGES.report}: comment by ${comment.userName}`} />
                    </div>
                  ) : null}
                </div>
                {comment.removed ? <RemovedNotice reason={comment.removed.reason} /> : null}
                {comment.pending ? <WaitingNotice /> : null}
                <p className="whitespace-pre-line break-words">{comment.commentText}</p>
                <OwnCommentTools comment={comment} canDelete={comment.isMine || isOwner} />
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
