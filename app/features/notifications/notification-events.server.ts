import { z } from 'zod';
import type { ServiceContext } from '~/lib/service-context';
import { encodeModerationDetail } from './notifications.presenter';
import * as repo from './notifications.repo.server';
import { notify } from './notifications.service.server';

/**
 * Domain events turned into notifications. Each handler is run by the job runner after the
 * change committed (never while a page waits) and reads what it needs anew, so an event about
 * something removed or held since tells nobody. Handlers are safe to run twice for likes and
 * follows (a person counts once per group); a comment's second run tells its recipient again.
 */
const id = z.string().min(1).max(64);

export const CommentPostedEvent = z.object({ commentId: id, blogId: id, authorId: id, parentId: id.nullish(), parentAuthorId: id.nullish() });
export const BlogLikedEvent = z.object({ blogId: id, userId: id });
export const CommentLikedEvent = z.object({ commentId: id, userId: id });
export const FollowStartedEvent = z.object({ followerId: id, writerId: id });
export const ModerationDecidedEvent = z.object({
  action: z.enum(['hide', 'restore', 'delete', 'approve']),
  targetType: z.enum(['blog', 'comment']),
  targetId: id,
  ownerId: id,
  blogId: id.nullish(),
  title: z.string().max(300).default(''),
  reason: z.string().max(1000).default(''),
});

/** A comment or reply: the parent comment's author hears of the reply, the post's writer of the comment. */
export async function onCommentPosted(ctx: ServiceContext, event: z.infer<typeof CommentPostedEvent>): Promise<void> {
  const comment = await repo.findComment(ctx.db, event.commentId);
  // Removed by a moderator or waiting for one (spam hold): nobody is told, as nobody sees it.
  if (!comment || comment.removed_at !== null || comment.pending_since !== null) return;
  const blog = await repo.findBlog(ctx.db, comment.blog_id);
  if (!blog) return;
  const parentAuthor = event.parentId ? (event.parentAuthorId ?? null) : null;
  if (parentAuthor) {
    await notify(ctx, { recipientId: parentAuthor, kind: 'reply', groupKey: `reply:${event.parentId}`, actorId: comment.user_id, blogId: blog.id, commentId: comment.id });
  }
  // The writer is told of every comment on her post, unless the reply was to her own comment
  // (she was told of it as a reply).
  if (blog.owner_id !== parentAuthor) {
    await notify(ctx, { recipientId: blog.owner_id, kind: 'comment', groupKey: `comment:${blog.id}`, actorId: comment.user_id, blogId: blog.id, commentId: comment.id });
  }
}

export async function onBlogLiked(ctx: ServiceContext, event: z.infer<typeof BlogLikedEvent>): Promise<void> {
  const blog = await repo.findBlog(ctx.db, event.blogId);
  if (!blog) return;
  await notify(ctx, { recipientId: blog.owner_id, kind: 'like_post', groupKey: `like_post:${blog.id}`, actorId: event.userId, blogId: blog.id });
}

export async function onCommentLiked(ctx: ServiceContext, event: z.infer<typeof CommentLikedEvent>): Promise<void> {
  const comment = await repo.findComment(ctx.db, event.commentId);
  if (!comment || comment.removed_at !== null) return;
  await notify(ctx, { recipientId: comment.user_id, kind: 'like_comment', groupKey: `like_comment:${comment.id}`, actorId: event.userId, blogId: comment.blog_id, commentId: comment.id });
}

export async function onFollowStarted(ctx: ServiceContext, event: z.infer<typeof FollowStartedEvent>): Promise<void> {
  await notify(ctx, { recipientId: event.writerId, kind: 'follow', groupKey: 'follow', actorId: event.followerId });
}

/** Each decision is its own notification: a hide and the later restore are two things to know. */
export async function onModerationDecided(ctx: ServiceContext, event: z.infer<typeof ModerationDecidedEvent>): Promise<void> {
  const blogId = event.action === 'delete' && event.targetType === 'blog' ? null : (event.blogId ?? (event.targetType === 'blog' ? event.targetId : null));
  const blog = blogId ? await repo.findBlog(ctx.db, blogId) : undefined;
  await notify(ctx, {
    recipientId: event.ownerId,
    kind: 'moderation',
    groupKey: `moderation:${event.targetType}:${event.targetId}:${ctx.now().toISOString()}`,
    actorId: null,
    blogId: blog ? blog.id : null,
    commentId: event.targetType === 'comment' && event.action !== 'delete' ? event.targetId : null,
    detail: encodeModerationDetail({ action: event.action, target: event.targetType, reason: event.reason, title: event.title }),
  });
}
