import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Form, Link, useLocation, useNavigation, useSubmit } from 'react-router';
import { useFeedback } from '~/components/feedback';
import { useFocusFirstInvalid } from '~/components/use-focus-first-invalid';
import { lazy } from '~/lib/page/lazy';
import { loginPath } from '~/lib/page/login-path';
import { MESSAGES } from '~/lib/texts/messages';
import type { CommentJson } from '../blogs.presenter';
import { BLOG_LIMITS } from '../blogs.constants';
import { SignedOutNotice } from '~/components/signed-out-notice';
import { CommentNode, threadTrees } from './comment-thread';

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
  blogId: string;
  comments: CommentJson[];
  /** The writer: no top-level comment (the spec's rule), but replies, pin and hide. */
  isOwner: boolean;
  /** Visitors see "Log in to comment"; signed-in readers may report others' comments. */
  signedIn: boolean;
  actionData?: CommentsActionData;
}

/** 'Leave a Comment' and the comments list (docs/product.md#blog-detail). Posts to the detail route's action. */
export function Comments({ blogId, comments, isOwner, signedIn, actionData }: CommentsProps) {
  const view = { blogId, isOwner, signedIn };
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
          {threadTrees(comments).map((node) => (
            <CommentNode key={node.comment._id} node={node} view={view} level={0} />
          ))}
        </ol>
      )}
    </section>
  );
}
