import { emit } from '~/kernel/events.server';
import { holdOf } from '~/kernel/standing.server';
import { newId } from '~/lib/core/ids.server';
import type { ServiceContext } from '~/lib/core/service-context';
import * as repo from './comments.repo.server';
import * as remoteRepo from './remote-comments.repo.server';

/**
 * Comments written on another server (docs/decisions/068): a reply from the fediverse to a post,
 * or to a comment under it, is a comment like any other, authored by a `remote_actors` row. The
 * federation feature calls these when its inbox gets a reply, its edit or its deletion; the rules
 * of where a comment may hang and what waits for a moderator stay here with the other comments.
 */

const DAY_MS = 86_400_000;

export interface RemoteCommentInput {
  blogId: string;
  /** The comment it answers (ours or another remote one); null: the post itself. */
  parentId: string | null;
  remoteActorId: string;
  /** When this server first saw the author: an unknown account is on the spam hold's terms. */
  authorFirstSeen: string;
  text: string;
  /** Who wrote it, as notifications name them. */
  author: { handle: string; name: string | null };
}

/**
 * Adds the reply; null when it has nowhere to hang (the parent is gone, hidden, removed,
 * waiting, or under another post). A new remote account's reply with too many links waits for a
 * moderator, as a new local account's would (docs/decisions/029).
 */
export async function addRemoteComment(ctx: ServiceContext, input: RemoteCommentInput): Promise<{ id: string; pending: boolean } | null> {
  const blogOwnerId = await remoteRepo.findBlogOwner(ctx.db, input.blogId);
  if (!blogOwnerId) return null;
  let parent: { id: string; root_id: string; depth: number; user_id: string | null } | null = null;
  if (input.parentId) {
    const found = await repo.findCommentWithBlogOwner(ctx.db, input.parentId);
    if (!found || found.blog_id !== input.blogId || found.deleted_at || found.hidden_at || found.removed_at || found.pending_since) return null;
    parent = found;
  }
  const now = ctx.now().toISOString();
  const holdEnds = new Date(new Date(input.authorFirstSeen).getTime() + (ctx.spamHold?.days ?? 0) * DAY_MS).toISOString();
  const hold = holdOf(ctx, holdEnds > now ? holdEnds : null, [input.text]);
  const id = newId();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertComment(trx, {
      id,
      blog_id: input.blogId,
      user_id: null,
      remote_actor_id: input.remoteActorId,
      parent_id: parent?.id ?? null,
      root_id: parent?.root_id ?? id,
      depth: parent ? parent.depth + 1 : 0,
      comment_text: input.text,
      commented_at: now,
      pending_since: hold.pending ? now : null,
    });
    // The writer (and the author of a local comment it answers) hears of it as of any comment.
    if (!hold.pending) {
      await emit({ ...ctx, db: trx }, 'comment.posted', {
        commentId: id,
        blogId: input.blogId,
        blogOwnerId,
        authorId: null,
        parentId: parent?.id ?? null,
        parentAuthorId: parent?.user_id ?? null,
        remoteAuthor: input.author,
      });
    }
  });
  return { id, pending: hold.pending };
}

/** Its author edited it where they wrote it. */
export async function editRemoteComment(ctx: ServiceContext, commentId: string, text: string): Promise<boolean> {
  return (await repo.updateCommentText(ctx.db, commentId, text, ctx.now().toISOString())) > 0;
}

/** Its author deleted it where they wrote it. */
export async function deleteRemoteComment(ctx: ServiceContext, commentId: string): Promise<boolean> {
  const comment = await repo.findCommentWithBlogOwner(ctx.db, commentId);
  if (!comment || comment.deleted_at) return false;
  return (await ctx.db.transaction().execute((trx) => repo.deleteComment(trx, commentId, comment.blog_id, ctx.now().toISOString()))) > 0;
}

/** A moderator blocked a remote account or a whole server: their replies here are removed. */
export async function removeRemoteAuthorsComments(ctx: ServiceContext, block: { actorUri?: string; host?: string; reason: string }): Promise<number> {
  return remoteRepo.removeCommentsOfRemote(ctx.db, { ...block, at: ctx.now().toISOString() });
}
