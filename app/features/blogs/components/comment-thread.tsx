import type { ReactNode } from 'react';
import { Form, Link, useSearchParams } from 'react-router';
import { Avatar } from '~/components/avatar';
import { LocalTime } from '~/components/local-format';
import { MESSAGES } from '~/lib/texts/messages';
import { onDemand } from '~/components/on-demand';
import { RemovedNotice, ReportButton, WaitingNotice } from '~/features/moderation/components/on-demand';
import type { CommentJson } from '../blogs.presenter';
import { BLOG_LIMITS } from '../blogs.constants';

// Only a comment's author and the post's writer have them: their code loads when shown (docs/decisions/077).
const OwnCommentTools = onDemand(() => import('./own-comment-tools').then((m) => ({ default: m.OwnCommentTools })), {
  serverMarkup: '[data-testid="own-comment-tools"]',
});

/** The query parameter that opens a reply form under a comment: a link, so it works before JavaScript. */
export const REPLY_PARAM = 'replyTo';
/** Levels shown under a top-level comment (0, 1, 2); deeper replies are behind "Continue this thread". */
export const LEVELS_SHOWN = 3;

export interface ThreadNode {
  comment: CommentJson;
  replies: ThreadNode[];
}

/** The flat list the server sends, in reading order, back into trees (a reply follows what it answers). */
export function threadTrees(comments: CommentJson[]): ThreadNode[] {
  const nodes = new Map<string, ThreadNode>();
  const roots: ThreadNode[] = [];
  for (const comment of comments) {
    const node = { comment, replies: [] };
    nodes.set(comment._id, node);
    const parent = comment.parentId ? nodes.get(comment.parentId) : undefined;
    (parent ? parent.replies : roots).push(node);
  }
  return roots;
}

export interface ThreadView {
  blogId: string;
  /** The viewer wrote the post: pins, hides, and deletes any comment on it. */
  isOwner: boolean;
  signedIn: boolean;
}

/** A small form posting one intent about one comment to the page's action (no script needed). */
function CommentButton({ intent, commentId, label, children, pressed }: { intent: string; commentId: string; label?: string; children: ReactNode; pressed?: boolean }) {
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="commentId" value={commentId} />
      <button type="submit" className="btn btn-ghost btn-xs" aria-label={label} aria-pressed={pressed}>
        {children}
      </button>
    </Form>
  );
}

function ReplyForm({ comment }: { comment: CommentJson }) {
  return (
    <Form method="post" preventScrollReset className="mt-2 flex w-full flex-col gap-2">
      <input type="hidden" name="intent" value="reply" />
      <input type="hidden" name="commentId" value={comment._id} />
      <label htmlFor={`reply-${comment._id}`} className="text-sm font-semibold">
        {MESSAGES.replyLabel}
      </label>
      <textarea id={`reply-${comment._id}`} name="commentText" rows={3} required maxLength={BLOG_LIMITS.commentText} className="textarea w-full" autoFocus />
      <div className="flex gap-2">
        <button type="submit" className="btn btn-primary btn-sm">{MESSAGES.postReply}</button>
        <Link to={`?#comment-${comment._id}`} preventScrollReset className="btn btn-ghost btn-sm">{MESSAGES.cancel}</Link>
      </div>
    </Form>
  );
}

function CommentTools({ comment, view }: { comment: CommentJson; view: ThreadView }) {
  const [searchParams] = useSearchParams();
  const replying = searchParams.get(REPLY_PARAM) === comment._id;
  const canReply = view.signedIn && !comment.hidden && !comment.removed && !comment.pending;
  const likes = comment.likes > 0 ? ` · ${comment.likes}` : '';
  return (
    <>
      <div className="mt-2 flex flex-wrap items-center gap-1">
        {view.signedIn && !comment.isMine && !comment.hidden ? (
          <CommentButton intent={comment.likedByMe ? 'unlike-comment' : 'like-comment'} commentId={comment._id} pressed={comment.likedByMe} label={`${MESSAGES.likeComment} (${comment.likes}): ${comment.userName}`}>
            {comment.likedByMe ? '♥' : '♡'} {MESSAGES.likeComment}
            {likes}
          </CommentButton>
        ) : comment.likes > 0 ? (
          <span className="px-2 text-xs opacity-80">♥ {comment.likes}</span>
        ) : null}
        {canReply && !replying ? (
          <Link to={`?${new URLSearchParams({ [REPLY_PARAM]: comment._id })}#comment-${comment._id}`} preventScrollReset className="btn btn-ghost btn-xs" aria-label={`${MESSAGES.reply} to ${comment.userName}`}>
            {MESSAGES.reply}
          </Link>
        ) : null}
        {view.isOwner && comment.parentId === null && !comment.hidden ? (
          <CommentButton intent={comment.pinned ? 'unpin-comment' : 'pin-comment'} commentId={comment._id}>
            {comment.pinned ? MESSAGES.unpinComment : MESSAGES.pinComment}
          </CommentButton>
        ) : null}
        {view.isOwner && !comment.isMine ? (
          <CommentButton intent={comment.hidden ? 'unhide-comment' : 'hide-comment'} commentId={comment._id}>
            {comment.hidden ? MESSAGES.unhideComment : MESSAGES.hideComment}
          </CommentButton>
        ) : null}
        {comment.isMine || view.isOwner ? <OwnCommentTools comment={comment} canDelete /> : null}
      </div>
      {replying && canReply ? <ReplyForm comment={comment} /> : null}
    </>
  );
}

function CommentCard({ comment, view }: { comment: CommentJson; view: ThreadView }) {
  if (comment.deleted) {
    return <p className="rounded-box bg-base-200 p-4 italic opacity-80">{MESSAGES.deletedComment}</p>;
  }
  const name = comment.remote?.profileUrl ? (
    <a href={comment.remote.profileUrl} rel="nofollow noopener" className="hover:underline">
      {comment.userName}
    </a>
  ) : (
    comment.userName
  );
  return (
    <div className={`flex gap-3 rounded-box p-4 ${comment.pinned ? 'border border-primary/40 bg-base-200' : 'bg-base-200'}`}>
      <Avatar src={comment.userPhoto} alt="" size={40} />
      <div className="min-w-0 flex-1">
        {/* Report sits on the name's line, so the text below keeps the card's whole width on a phone. */}
        <div className="flex items-start justify-between gap-2">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-semibold">
            <span>{name}</span>
            {comment.isAuthor ? <span className="badge badge-primary badge-sm" data-testid="author-badge">{MESSAGES.authorBadge}</span> : null}
            {comment.pinned ? <span className="badge badge-outline badge-sm">{MESSAGES.pinnedBadge}</span> : null}
            {comment.hidden ? <span className="badge badge-hidden badge-sm" data-testid="hidden-badge">{MESSAGES.hiddenBadge}</span> : null}
            {/* An imported comment's author has a name and no handle of her own: the name is not shown twice. */}
            {comment.remote && comment.remote.handle !== comment.userName ? <span className="text-sm font-normal opacity-75">{comment.remote.handle}</span> : null}
            <span className="whitespace-nowrap text-sm font-normal opacity-75">
              <LocalTime iso={comment.commentedAt} withTime />
              {comment.edited ? ` · ${MESSAGES.edited}` : null}
            </span>
          </p>
          {view.signedIn && !comment.isMine ? (
            <div className="shrink-0">
              <ReportButton targetType="comment" targetId={comment._id} label={`${MESSAGES.report}: comment by ${comment.userName}`} />
            </div>
          ) : null}
        </div>
        {comment.removed ? <RemovedNotice reason={comment.removed.reason} /> : null}
        {comment.pending ? <WaitingNotice /> : null}
        <p dir="auto" className="whitespace-pre-line break-words">{comment.commentText}</p>
        <CommentTools comment={comment} view={view} />
      </div>
    </div>
  );
}

/**
 * One comment and, up to LEVELS_SHOWN levels, the replies under it, each list indented by a
 * rule; below that a link to the sub-thread's own page.
 */
export function CommentNode({ node, view, level }: { node: ThreadNode; view: ThreadView; level: number }) {
  const { comment, replies } = node;
  return (
    <li id={`comment-${comment._id}`} data-testid="comment" data-depth={level}>
      <CommentCard comment={comment} view={view} />
      {replies.length > 0 && level + 1 < LEVELS_SHOWN ? (
        <ol className="mt-3 flex flex-col gap-3 border-l-2 border-base-300 pl-3 sm:pl-5" aria-label={`Replies to ${comment.userName}`}>
          {replies.map((reply) => (
            <CommentNode key={reply.comment._id} node={reply} view={view} level={level + 1} />
          ))}
        </ol>
      ) : null}
      {replies.length > 0 && level + 1 >= LEVELS_SHOWN ? (
        <p className="mt-2 pl-3 sm:pl-5">
          <Link to={`/blogs/${view.blogId}/comments/${comment._id}`} className="link link-primary text-sm font-semibold" data-testid="continue-thread">
            {MESSAGES.continueThread} →
          </Link>
        </p>
      ) : null}
    </li>
  );
}


