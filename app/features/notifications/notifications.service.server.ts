import type { NotificationDelivery, NotificationKind } from '~/db/schema';
import { emit } from '~/kernel/events.server';
import { newId } from '~/lib/core/ids.server';
import { userOrThrow401, type ServiceContext } from '~/lib/core/service-context';
import { deliveriesOf } from './notification-mail.service.server';
import { presentNotification } from './notifications.presenter';
import * as repo from './notifications.repo.server';
import {
  type ListNotificationsQuery,
  type MarkNotificationsReadInput,
  NOTIFICATION_KEEP_DAYS,
  NOTIFICATION_KINDS,
  type NotificationSettingsInput,
  type NotificationView,
} from './notifications.schema';
import { forgetUnread, keepUnread, keptUnread } from './unread-memo.server';

/**
 * Kinds where the same person counts once per group: liking, unliking and liking again, or
 * following twice, tells the recipient nothing new. Someone who comments twice said two things.
 */
const ONCE_PER_ACTOR: ReadonlySet<NotificationKind> = new Set(['like_post', 'like_comment', 'follow']);

export interface NotifyInput {
  recipientId: string;
  kind: NotificationKind;
  /** What gathers notifications into one line: 'like_post:<blog>', 'reply:<comment>', 'follow'… */
  groupKey: string;
  /** Who did it; null for a moderator's decision (moderators act for the site, unnamed). */
  actorId: string | null;
  blogId?: string | null;
  commentId?: string | null;
  detail?: string | null;
}

/**
 * Tells the recipient: opens or reopens their group, adds the actor, and queues the mail at once
 * when the recipient wants this kind so, all in one transaction. Nobody is told of their own
 * action. Called by the event handlers the job runner runs, never while a page waits.
 */
export async function notify(ctx: ServiceContext, input: NotifyInput): Promise<{ id: string } | null> {
  if (input.actorId !== null && input.actorId === input.recipientId) return null;
  const now = ctx.now().toISOString();
  const made = await ctx.db.transaction().execute(async (db) => {
    if (input.actorId && ONCE_PER_ACTOR.has(input.kind)) {
      const group = await repo.findGroup(db, input.recipientId, input.groupKey);
      if (group && (await repo.hasActor(db, group.id, input.actorId))) return null;
    }
    const email = await repo.findUserEmail(db, input.recipientId);
    if (email === null) return null;
    const id = await repo.upsertGroup(db, {
      id: newId(),
      recipient_id: input.recipientId,
      kind: input.kind,
      group_key: input.groupKey,
      blog_id: input.blogId ?? null,
      comment_id: input.commentId ?? null,
      actor_id: input.actorId,
      detail: input.detail ?? null,
      now,
    });
    if (input.actorId) await repo.addActor(db, id, input.actorId, now);
    if ((await deliveriesOf(db, input.recipientId))[input.kind] === 'instant') {
      await emit({ ...ctx, db }, 'notification.instant', { notificationId: id, userId: input.recipientId, kind: input.kind, email });
    }
    return { id };
  });
  if (made) forgetUnread(input.recipientId);
  return made;
}

/** The signed-in member's notifications, grouped, newest activity first. */
export async function listNotifications(ctx: ServiceContext, query: ListNotificationsQuery): Promise<{ items: NotificationView[]; total: number }> {
  const user = userOrThrow401(ctx);
  const rows = await repo.listForRecipient(ctx.db, user.id, { limit: query.limit, offset: (query.page - 1) * query.limit });
  return { items: rows.map((r) => presentNotification(r, user.id)), total: await repo.countForRecipient(ctx.db, user.id) };
}

/**
 * The bell's count. Kept per member in memory for a few seconds (unread-memo.server.ts), so a
 * signed-in page usually pays no query for it.
 */
export async function countUnreadNotifications(ctx: ServiceContext): Promise<number> {
  const user = userOrThrow401(ctx);
  const kept = keptUnread(user.id);
  if ('count' in kept) return kept.count;
  const count = await repo.countUnread(ctx.db, user.id);
  keepUnread(user.id, count, kept.mark);
  return count;
}

/** Marks the member's own notifications read: those named, or all. Others' ids change nothing. */
export async function markNotificationsRead(ctx: ServiceContext, input: MarkNotificationsReadInput): Promise<{ modifiedCount: number }> {
  const user = userOrThrow401(ctx);
  const modifiedCount = await repo.markRead(ctx.db, user.id, input.ids, ctx.now().toISOString());
  forgetUnread(user.id);
  return { modifiedCount };
}

/** Notifications with no activity for NOTIFICATION_KEEP_DAYS go, read or not (a periodic job). */
export async function purgeOldNotifications(ctx: ServiceContext): Promise<{ deleted: number }> {
  const before = new Date(ctx.now().getTime() - NOTIFICATION_KEEP_DAYS * 86_400_000).toISOString();
  const deleted = await repo.deleteOlderThan(ctx.db, before);
  if (deleted > 0) ctx.log.info({ deleted }, 'notifications: old ones removed');
  return { deleted };
}

/** The member's choice of mail per kind (the preferences page). */
export async function notificationSettings(ctx: ServiceContext): Promise<Record<NotificationKind, NotificationDelivery>> {
  return deliveriesOf(ctx.db, userOrThrow401(ctx).id);
}

export async function saveNotificationSettings(ctx: ServiceContext, input: NotificationSettingsInput): Promise<void> {
  const user = userOrThrow401(ctx);
  await ctx.db.transaction().execute(async (db) => {
    for (const kind of NOTIFICATION_KINDS) {
      const delivery = input[kind];
      if (delivery) await repo.saveSetting(db, { user_id: user.id, kind, delivery });
    }
  });
}

/**
 * A mailed one-click unsubscribe, without a login (the caller checked the signed link): one
 * kind's mail, or every kind's, stops. The notifications themselves stay in the app.
 */
export async function stopNoticeMailByLink(ctx: ServiceContext, userId: string, kind?: NotificationKind): Promise<void> {
  if ((await repo.findUserEmail(ctx.db, userId)) === null) return;
  await ctx.db.transaction().execute(async (db) => {
    for (const k of kind ? [kind] : NOTIFICATION_KINDS) await repo.saveSetting(db, { user_id: userId, kind: k, delivery: 'off' });
  });
  ctx.log.info({ user: userId, kind: kind ?? 'all' }, 'notifications: mail stopped by link');
}

