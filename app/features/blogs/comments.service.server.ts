import { emit } from '~/kernel/events.server';
import { assertCanComment, assertCanWrite, holdFor } from '~/kernel/standing.server';
import { AppError } from '~/lib/core/errors';
import { newId } from '~/lib/core/ids.server';
import { MESSAGES } from '~/lib/texts/messages';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import type { ServiceContext } from '~/lib/core/service-context';
import { blogPathOf } from './blog-path';
import { findVisibleBlog } from './blog-visibility.server';
import { type BlogRow, type CommentJson, type CommentRow, presentComment } from './blogs.presenter';
import type { CommentInput } from './blogs.schema';
import { arrangeThreads, commentShownTo } from './comment-threads';
import * as repo from './comments.repo.server';

// Comments and their threads (docs/decisions/060): the spec's top-level comment, replies under
// any comment, likes, and the writer's pin and hide. Every rule here; pages and API only call.

/** The detail shows the newest top-level comments; older ones stay in the database (no unbounded list). */
export const COMMENTS_SHOWN = 100;
/** Replies read with them, oldest first; a thread page reads one thread up to THREAD_SHOWN. */
export const REPLIES_SHOWN = 500;
export const THREAD_SHOWN = 500;

const commentNotFound = () => new AppError('not_found', MESSAGES.commentNotFound);

async function present(ctx: ServiceContext, rows: CommentRow[], writerId: string): Promise<CommentJson[]> {
  const liked = ctx.user ? await repo.commentsLikedAmong(ctx.db, ctx.user.id, rows.map((r) => r.id)) : new Set<string>();
  return rows.map((row) => presentComment(row, ctx.user, { writerId, liked }));
}

/** The blog page's comments: the pinned one first, then each thread in reading order, as the viewer may see them. */
export async function listBlogComments(ctx: ServiceContext, blog: Pick<BlogRow, 'id' | 'owner_id'>): Promise<CommentJson[]> {
  const viewer = ctx.user ? { id: ctx.user.id, isWriter: ctx.user.id === blog.owner_id } : null;
  const rows = await repo.listBlogComments(ctx.db, blog.id, COMMENTS_SHOWN, REPLIES_SHOWN, viewer);
  return present(ctx, arrangeThreads(rows, ctx.user?.id ?? null, blog.owner_id), blog.owner_id);
}

/**
 * A comment the caller may see, on a blog the caller may see: anything else does not exist for
 * them (404), whoever asks.
 */
async function findShownComment(ctx: ServiceContext, id: string) {
  const comment = await repo.findCommentWithBlogOwner(ctx.db, id);
  if (!comment || comment.deleted_at || !commentShownTo(comment, ctx.user?.id ?? null, comment.blog_owner_id)) throw commentNotFound();
  const blog = await findVisibleBlog(ctx, comment.blog_id);
  return { comment, blog };
}

/** One comment and the replies under it, for its thread page and the API. */
export async function listThread(ctx: ServiceContext, id: string): Promise<{ blogId: string; blogPath: string; isOwner: boolean; comments: CommentJson[] }> {
  const comment = await repo.findCommentWithBlogOwner(ctx.db, id);
  if (!comment) throw commentNotFound();
  const blog = await findVisibleBlog(ctx, comment.blog_id);
  const rows = arrangeThreads(await repo.listThread(ctx.db, comment.root_id, THREAD_SHOWN), ctx.user?.id ?? null, blog.owner_id, id);
  if (rows.length === 0) throw commentNotFound();
  return { blogId: blog.id, blogPath: blogPathOf(blog), isOwner: ctx.user?.id === blog.owner_id, comments: await present(ctx, rows, blog.owner_id) };
}

interface NewComment {
  blogId: string;
  blogOwnerId: string;
  parent: { id: string; root_id: string; depth: number; user_id: string | null } | null;
}

/** Writes a comment or a reply under the same standing, rate limit and spam hold (decision 029). */
async function insertComment(ctx: ServiceContext, userId: string, input: CommentInput, at: NewComment) {
  const now = ctx.now().toISOString();
  const hold = await holdFor(ctx, userId, [input.commentText]);
  const id = newId();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertComment(trx, {
      id,
      blog_id: at.blogId,
      user_id: userId,
      parent_id: at.parent?.id ?? null,
      root_id: at.parent?.root_id ?? id,
      depth: at.parent ? at.parent.depth + 1 : 0,
      comment_text: input.commentText,
      commented_at: now,
      pending_since: hold.pending ? now : null,
    });
    // A comment waiting for a moderator is not yet said to anyone.
    if (!hold.pending) {
      await emit({ ...ctx, db: trx }, 'comment.posted', {
        commentId: id,
        blogId: at.blogId,
        blogOwnerId: at.blogOwnerId,
        authorId: userId,
        parentId: at.parent?.id ?? null,
        parentAuthorId: at.parent?.user_id ?? null,
      });
    }
  });
  return { success: true as const, insertedId: id, ...(hold.pending ? { pending: true as const } : {}) };
}

/**
 * A top-level comment by the caller (whatever a payload claims); never on one's own blog (spec
 * §5): the writer answers her readers in replies instead.
 */
export async function addComment(ctx: ServiceContext, id: string, input: CommentInput): Promise<{ success: true; pending?: true }> {
  const user = await assertCanComment(ctx);
  await ctx.limit(RATE_LIMITS.comment);
  const row = await findVisibleBlog(ctx, id);
  if (row.owner_id === user.id) throw new AppError('forbidden', MESSAGES.cantCommentOwn);
  // The spec's answer: a success flag (and ours, `pending`), nothing more.
  const { insertedId: _, ...posted } = await insertComment(ctx, user.id, input, { blogId: id, blogOwnerId: row.owner_id, parent: null });
  return posted;
}

/**
 * A reply under a comment everyone can see: anyone signed in and in good standing, the blog's
 * writer included (docs/decisions/060). A comment that is hidden, removed, waiting or deleted
 * takes no replies: nobody else would see them.
 */
export async function replyToComment(ctx: ServiceContext, commentId: string, input: CommentInput): Promise<{ success: true; insertedId: string; pending?: true }> {
  const user = await assertCanComment(ctx);
  await ctx.limit(RATE_LIMITS.comment);
  const { comment } = await findShownComment(ctx, commentId);
  if (comment.hidden_at || comment.removed_at || comment.pending_since) throw new AppError('conflict', MESSAGES.cantReplyThere);
  return insertComment(ctx, user.id, input, { blogId: comment.blog_id, blogOwnerId: comment.blog_owner_id, parent: comment });
}

/**
 * Before an account goes, its comments go with it (the cascade), but what others answered under
 * them stays: each such reply moves up to the nearest comment that stays, or to the top of the
 * post, with its own replies under it as they were. Answers how many comments moved.
 */
export async function keepRepliesOfLeavingAccount(ctx: ServiceContext, userId: string): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const places = await repo.threadsCommentedIn(trx, userId);
    const moves = placesWithout(places, userId);
    for (const [id, place] of moves) await repo.moveComment(trx, id, place);
    return moves.size;
  });
}

/** A leaving account's comment that every reader saw, as its withdrawal will name it. */
export interface LeavingComment {
  commentId: string;
  blogId: string;
  parentId: string | null;
}

/**
 * Before an account goes (docs/decisions/088): its comments still shown under other writers'
 * posts, noted while the rows say it. Its comments under its own posts go with the posts.
 */
export async function commentsLeavingWith(ctx: ServiceContext, userId: string): Promise<LeavingComment[]> {
  return (await repo.shownCommentsBy(ctx.db, userId)).map((r) => ({ commentId: r.id, blogId: r.blog_id, parentId: r.parent_id }));
}

/**
 * Once the account is gone: each noted comment left its readers as a deletion would have made it
 * leave, so what follows a deleted comment (its Delete on the fediverse) follows these too.
 */
export async function commentsLeft(ctx: ServiceContext, userId: string, comments: readonly LeavingComment[]): Promise<void> {
  if (comments.length === 0) return;
  await ctx.db.transaction().execute(async (trx) => {
    for (const c of comments) await emit({ ...ctx, db: trx }, 'comment.withdrawn', { ...c, authorId: userId, how: 'deleted' });
  });
}

/**
 * The new places of the comments that stay when `userId`'s comments leave their threads: a
 * comment's parent becomes its nearest ancestor not by `userId` (none: it starts a thread of its
 * own), and its root and depth follow. Only the comments whose place changes are answered.
 */
export function placesWithout(places: readonly repo.ThreadPlace[], userId: string): Map<string, Pick<repo.ThreadPlace, 'parent_id' | 'root_id' | 'depth'>> {
  const byId = new Map(places.map((place) => [place.id, place]));
  const leaves = (id: string | null) => id !== null && byId.get(id)?.user_id === userId;
  const parentOf = (place: repo.ThreadPlace) => {
    let parent = place.parent_id;
    while (leaves(parent)) parent = byId.get(parent!)!.parent_id;
    return parent;
  };
  const placed = new Map<string, Pick<repo.ThreadPlace, 'parent_id' | 'root_id' | 'depth'>>();
  const placeOf = (place: repo.ThreadPlace): Pick<repo.ThreadPlace, 'parent_id' | 'root_id' | 'depth'> => {
    const known = placed.get(place.id);
    if (known) return known;
    const parentId = parentOf(place);
    const parent = parentId === null ? undefined : byId.get(parentId);
    const next = parent ? { parent_id: parent.id, root_id: placeOf(parent).root_id, depth: placeOf(parent).depth + 1 } : { parent_id: null, root_id: place.id, depth: 0 };
    placed.set(place.id, next);
    return next;
  };
  const moves = new Map<string, Pick<repo.ThreadPlace, 'parent_id' | 'root_id' | 'depth'>>();
  for (const place of places) {
    if (place.user_id === userId) continue;
    const next = placeOf(place);
    if (next.parent_id !== place.parent_id || next.root_id !== place.root_id || next.depth !== place.depth) moves.set(place.id, next);
  }
  return moves;
}

/** Its author edits a comment; it is then shown as "edited". */
export async function editComment(ctx: ServiceContext, commentId: string, input: CommentInput): Promise<{ modifiedCount: number }> {
  const user = await assertCanComment(ctx);
  const comment = await repo.findCommentWithBlogOwner(ctx.db, commentId);
  if (!comment || comment.deleted_at) throw commentNotFound();
  if (comment.user_id !== user.id) throw new AppError('forbidden', MESSAGES.onlyCommentAuthor);
  const now = ctx.now().toISOString();
  const hold = await holdFor(ctx, user.id, [input.commentText]);
  const modifiedCount = await ctx.db.transaction().execute(async (trx) => {
    const changed = await repo.updateCommentText(trx, commentId, input.commentText, now, hold.pending ? now : undefined);
    if (changed && !hold.pending) await emit({ ...ctx, db: trx }, 'comment.edited', { commentId, authorId: user.id });
    return changed;
  });
  return { modifiedCount };
}

/** Its author deletes a comment, or the owner of the blog it is on; one with replies stays as "[deleted]". */
export async function deleteComment(ctx: ServiceContext, commentId: string): Promise<{ deletedCount: number }> {
  const user = await assertCanWrite(ctx);
  const comment = await repo.findCommentWithBlogOwner(ctx.db, commentId);
  if (!comment || comment.deleted_at) throw commentNotFound();
  if (comment.user_id !== user.id && comment.blog_owner_id !== user.id) throw new AppError('forbidden', MESSAGES.onlyCommentAuthorOrBlogOwner);
  const deletedCount = await ctx.db.transaction().execute(async (trx) => {
    const deleted = await repo.deleteComment(trx, commentId, comment.blog_id, ctx.now().toISOString());
    if (deleted && comment.user_id) await emit({ ...ctx, db: trx }, 'comment.withdrawn', { commentId, blogId: comment.blog_id, authorId: comment.user_id, parentId: comment.parent_id, how: 'deleted' });
    return deleted;
  });
  return { deletedCount };
}

/**
 * One like per reader and comment, never on one's own (docs/decisions/060); a second like or an
 * unlike of nothing answers modifiedCount 0.
 */
export async function setCommentLiked(ctx: ServiceContext, commentId: string, liked: boolean): Promise<{ modifiedCount: number; likes: number }> {
  const user = await assertCanWrite(ctx);
  const { comment } = await findShownComment(ctx, commentId);
  if (comment.user_id === user.id) throw new AppError('forbidden', MESSAGES.cantLikeOwnComment);
  return ctx.db.transaction().execute(async (trx) => {
    const changed = liked
      ? await repo.insertCommentLike(trx, { comment_id: commentId, user_id: user.id, created_at: ctx.now().toISOString() })
      : await repo.deleteCommentLike(trx, commentId, user.id);
    const likes = await repo.addToCommentLikes(trx, commentId, changed ? (liked ? 1 : -1) : 0);
    if (changed && liked) await emit({ ...ctx, db: trx }, 'comment.liked', { commentId, blogId: comment.blog_id, authorId: comment.user_id, userId: user.id });
    return { modifiedCount: changed, likes };
  });
}

/** A comment on the caller's own blog, for the writer's pin and hide. */
async function writersComment(ctx: ServiceContext, commentId: string) {
  const user = await assertCanWrite(ctx);
  const { comment } = await findShownComment(ctx, commentId);
  if (comment.blog_owner_id !== user.id) throw new AppError('forbidden', MESSAGES.onlyWriterPinsOrHides);
  return { user, comment };
}

/** The writer pins one top-level comment on her post (another pinned one is unpinned), or unpins it. */
export async function setCommentPinned(ctx: ServiceContext, commentId: string, pinned: boolean): Promise<{ modifiedCount: number }> {
  const { comment } = await writersComment(ctx, commentId);
  if (pinned && comment.parent_id !== null) throw new AppError('bad_request', MESSAGES.onlyTopLevelPinned);
  if (pinned && comment.hidden_at) throw new AppError('conflict', MESSAGES.cantPinHidden);
  const at = pinned ? ctx.now().toISOString() : null;
  return { modifiedCount: await ctx.db.transaction().execute((trx) => repo.setPinned(trx, comment.blog_id, commentId, at)) };
}

/** The writer hides a comment on her post from everyone but herself and its author, or shows it again. */
export async function setCommentHidden(ctx: ServiceContext, commentId: string, hidden: boolean): Promise<{ modifiedCount: number }> {
  const { user, comment } = await writersComment(ctx, commentId);
  const modifiedCount = await ctx.db.transaction().execute(async (trx) => {
    const changed = await repo.setHidden(trx, commentId, hidden ? { at: ctx.now().toISOString(), by: user.id } : null);
    if (changed && hidden && comment.user_id) await emit({ ...ctx, db: trx }, 'comment.withdrawn', { commentId, blogId: comment.blog_id, authorId: comment.user_id, parentId: comment.parent_id, how: 'hidden' });
    if (changed && !hidden && comment.user_id) await emit({ ...ctx, db: trx }, 'comment.shown', { commentId, authorId: comment.user_id });
    return changed;
  });
  return { modifiedCount };
}
