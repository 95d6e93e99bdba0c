import { definePeriodic } from '~/kernel/schedule.server';
import { onEvent } from '~/kernel/events.server';
import type { ServiceContext } from '~/lib/core/service-context';
import { encodeModerationDetail, type ModerationDetail } from './notifications.presenter';
import * as repo from './notifications.repo.server';
import { notify, purgeOldNotifications, stopNoticeMailByLink } from './notifications.service.server';

/**
 * Domain events turned into notifications (docs/decisions/062). Each handler is a job the runner
 * runs after the change committed, never while a page waits, and reads what it needs anew: an
 * event about something removed or held since tells nobody. Run twice (a worker died after the
 * work), likes and follows count a person once per group; a comment tells its recipient again.
 */

/** Seen by others: not removed by a moderator, waiting for one (spam hold), hidden by the writer or deleted. */
const shown = (c: { removed_at: string | null; pending_since: string | null; hidden_at: string | null; deleted_at: string | null }) =>
  c.removed_at === null && c.pending_since === null && c.hidden_at === null && c.deleted_at === null;

/**
 * A comment or reply: the parent comment's author hears of the reply, the post's writer of the
 * comment. A remote author's comment tells the writer without naming anyone yet (its actor is
 * not a member); a reply to a remote author's comment tells nobody here.
 */
export async function onCommentPosted(ctx: ServiceContext, event: { commentId: string; parentId: string | null }): Promise<void> {
  const comment = await repo.findComment(ctx.db, event.commentId);
  // Nobody is told of what nobody sees.
  if (!comment || !shown(comment)) return;
  const blog = await repo.findBlog(ctx.db, comment.blog_id);
  if (!blog) return;
  const parent = event.parentId ? await repo.findComment(ctx.db, event.parentId) : undefined;
  if (parent?.user_id) {
    await notify(ctx, { recipientId: parent.user_id, kind: 'reply', groupKey: `reply:${parent.id}`, actorId: comment.user_id, blogId: blog.id, commentId: comment.id });
  }
  // The writer hears of every comment on her post, but of a reply to her own comment only once,
  // as a reply.
  if (blog.owner_id !== parent?.user_id) {
    await notify(ctx, { recipientId: blog.owner_id, kind: 'comment', groupKey: `comment:${blog.id}`, actorId: comment.user_id, blogId: blog.id, commentId: comment.id });
  }
}

export async function onBlogLiked(ctx: ServiceContext, event: { blogId: string; userId: string }): Promise<void> {
  const blog = await repo.findBlog(ctx.db, event.blogId);
  if (!blog) return;
  await notify(ctx, { recipientId: blog.owner_id, kind: 'like_post', groupKey: `like_post:${blog.id}`, actorId: event.userId, blogId: blog.id });
}

export async function onCommentLiked(ctx: ServiceContext, event: { commentId: string; userId: string }): Promise<void> {
  const comment = await repo.findComment(ctx.db, event.commentId);
  if (!comment?.user_id || !shown(comment)) return;
  await notify(ctx, { recipientId: comment.user_id, kind: 'like_comment', groupKey: `like_comment:${comment.id}`, actorId: event.userId, blogId: comment.blog_id, commentId: comment.id });
}

export async function onFollowStarted(ctx: ServiceContext, event: { followerId: string; writerId: string }): Promise<void> {
  await notify(ctx, { recipientId: event.writerId, kind: 'follow', groupKey: 'follow', actorId: event.followerId });
}

const DECISIONS: ReadonlySet<string> = new Set<ModerationDetail['action']>(['hide', 'restore', 'delete', 'approve']);

/**
 * A moderator's decision about a member's blog or comment; each its own notification (a hide and
 * the later restore are two things to know), naming no moderator: they act for the site.
 */
export async function onModerationDecided(
  ctx: ServiceContext,
  event: { id: string; action: string; targetType: string; targetId: string; ownerId: string | null; reason: string },
): Promise<void> {
  if (!event.ownerId || !DECISIONS.has(event.action) || (event.targetType !== 'blog' && event.targetType !== 'comment')) return;
  const comment = event.targetType === 'comment' ? await repo.findComment(ctx.db, event.targetId) : undefined;
  const blog = await repo.findBlog(ctx.db, comment ? comment.blog_id : event.targetId);
  const detail: ModerationDetail = { action: event.action as ModerationDetail['action'], target: event.targetType, reason: event.reason, title: blog?.title ?? '' };
  await notify(ctx, {
    recipientId: event.ownerId,
    kind: 'moderation',
    groupKey: `moderation:${event.id}`,
    actorId: null,
    blogId: blog?.id ?? null,
    commentId: comment?.id ?? null,
    detail: encodeModerationDetail(detail),
  });
}

/** A notification is dated when its event happened, not when a worker got to it. */
const at = (ctx: ServiceContext, event: { at: string }): ServiceContext => ({ ...ctx, now: () => new Date(event.at) });

/** What notifications subscribe to; listed once in server/jobs/registry.server.ts. */
export const NOTIFICATION_SUBSCRIPTIONS = [
  onEvent('comment.posted', 'notifications', (ctx, e) => onCommentPosted(at(ctx, e), e.data)),
  onEvent('blog.liked', 'notifications', (ctx, e) => onBlogLiked(at(ctx, e), e.data)),
  onEvent('comment.liked', 'notifications', (ctx, e) => onCommentLiked(at(ctx, e), e.data)),
  onEvent('follow.started', 'notifications', (ctx, e) => onFollowStarted(at(ctx, e), e.data)),
  onEvent('moderation.decided', 'notifications', (ctx, e) => onModerationDecided(at(ctx, e), { id: e.id, ...e.data })),
  // A signed unsubscribe link in a notification mail stops that kind's mail, or every kind's (docs/decisions/071).
  onEvent('mail.stopped', 'notifications', async (ctx, e) => {
    if (e.data.kind === 'notice' && e.data.noticeKind) await stopNoticeMailByLink(ctx, e.data.userId, e.data.noticeKind);
    else if (e.data.kind === 'notices') await stopNoticeMailByLink(ctx, e.data.userId);
  }),
];

const HOUR = 3_600_000;

/** The purge of old notifications (their daily digests are mail's: app/features/mail). */
export function notificationTasks() {
  return [
    definePeriodic({ name: 'notification-purge', everyMs: 6 * HOUR, run: async (ctx) => void (await purgeOldNotifications(ctx)) }),
  ];
}
