import { z } from 'zod';
import type { NotificationKind } from '~/db/schema';
import { newId } from '~/lib/core/ids.server';
import type { ServiceContext } from '~/lib/core/service-context';
import { defineJob, enqueueJob, type JobDefinition, type JobRun } from './jobs.server';

/**
 * Domain events (docs/decisions/057): what happened, said once by the feature that owns the
 * change, for whoever cares (mail, notifications, federation, caches) to act on later. Emitting
 * queues one job in the change's own transaction, so an event exists exactly when its change
 * committed; a worker then hands it to each subscriber as a job of its own, retried on its own.
 * Nothing a subscriber does runs on the request that made the change.
 *
 * Payloads carry ids and the facts a subscriber cannot read back later (who did it, what it
 * was); a subscriber reads the current state itself, since it may run minutes afterwards.
 */
const id = z.string().min(1);
const noticeKind = z.enum(['comment', 'reply', 'like_post', 'like_comment', 'follow', 'moderation']) satisfies z.ZodType<NotificationKind>;

export const DOMAIN_EVENTS = {
  /** A blog became Public and reaches readers (not held, not waiting for a moderator). */
  'blog.published': z.object({ blogId: id, ownerId: id }),
  /** A blog's content changed (whatever its availability). */
  'blog.updated': z.object({ blogId: id, ownerId: id }),
  /** A blog left readers: made Hidden by its writer, removed by a moderator, or deleted. */
  'blog.withdrawn': z.object({ blogId: id, ownerId: id, how: z.enum(['hidden', 'removed', 'deleted']) }),
  /**
   * A comment or a reply (parentId, and parentAuthorId: null for a remote author) is shown to
   * readers (docs/decisions/060); authorId null and remoteAuthor: a reply from another server (docs/decisions/068).
   */
  'comment.posted': z.object({
    commentId: id,
    blogId: id,
    blogOwnerId: id,
    authorId: id.nullable(),
    parentId: id.nullable().default(null),
    parentAuthorId: id.nullable().default(null),
    remoteAuthor: z.object({ handle: z.string(), name: z.string().nullable() }).nullable().default(null),
  }),
  /** A local author's comment is shown again: its writer un-hid it, or a moderator restored it (docs/decisions/080). */
  'comment.shown': z.object({ commentId: id, authorId: id }),
  /** Its local author edited a comment that stays shown (docs/decisions/068). */
  'comment.edited': z.object({ commentId: id, authorId: id }),
  /** A local author's comment left its readers: deleted, hidden by the blog's writer, or removed by a moderator (docs/decisions/068). */
  'comment.withdrawn': z.object({ commentId: id, blogId: id, authorId: id, parentId: id.nullable().default(null), how: z.enum(['deleted', 'hidden', 'removed']) }),
  /** Someone liked a comment (authorId null: a remote author's). */
  'comment.liked': z.object({ commentId: id, blogId: id, authorId: id.nullable(), userId: id }),
  'blog.liked': z.object({ blogId: id, ownerId: id, userId: id }),
  'follow.started': z.object({ followerId: id, writerId: id }),
  'follow.ended': z.object({ followerId: id, writerId: id }),
  'subscriber.confirmed': z.object({ subscriberId: id }),
  /** An address asked for the newsletter and gets nothing until it confirms (double opt-in, docs/decisions/023). */
  'subscriber.pending': z.object({ subscriberId: id, email: z.string() }),
  /**
   * A signed mail link asked to stop mails that are not the newsletter: a member's follow of one
   * writer or of all ('follow', 'follows'), or notification mails of one kind or all ('notice',
   * 'notices'). The feature that owns each choice ends it (docs/decisions/071).
   */
  'mail.stopped': z.object({ kind: z.enum(['notice', 'notices']), userId: id, noticeKind: noticeKind.nullable().default(null) }),
  /** A notification its recipient wants by mail at once (docs/decisions/062). */
  'notification.instant': z.object({ notificationId: id, userId: id, kind: noticeKind, email: z.string() }),
  /** A moderator acted on something (the moderation log's action and target). */
  'moderation.decided': z.object({ actorId: id.nullable(), action: z.string(), targetType: z.string(), targetId: id, ownerId: id.nullable().default(null), reason: z.string().default('') }),
  /** A person changed their shown name (federation moves their handle to it, docs/decisions/080). */
  'account.renamed': z.object({ userId: id }),
  'account.suspended': z.object({ userId: id, until: z.string().nullable(), reason: z.string() }),
  /**
   * An account deleted itself (docs/decisions/067). Its rows went with it by cascade; the
   * address and the other writers' blogs it liked or commented on are what is left to tidy, and
   * its posts that went out to the fediverse (postIds, docs/decisions/088).
   */
  'account.deleted': z.object({ userId: id, email: z.string(), blogIds: z.array(id), postIds: z.array(id).default([]) }),
} as const;

export type EventName = keyof typeof DOMAIN_EVENTS;
export type EventData<N extends EventName> = z.output<(typeof DOMAIN_EVENTS)[N]>;

export interface DomainEvent<N extends EventName = EventName> {
  /** Unique per emit: a subscriber may key its own idempotence on it. */
  id: string;
  name: N;
  /** When the change happened (ISO). */
  at: string;
  data: EventData<N>;
}

const envelope = z.object({ id, name: z.enum(Object.keys(DOMAIN_EVENTS) as [EventName, ...EventName[]]), at: z.iso.datetime(), data: z.unknown() });

/** The job every emit queues; its handler (made by eventJobs) hands the event to each subscriber. */
const EVENT_KIND = 'event';

/**
 * Says that `name` happened. Call it with the context of the transaction that made the change,
 * so the event commits with it. Costs one INSERT.
 */
export async function emit<N extends EventName>(ctx: Pick<ServiceContext, 'db' | 'now'>, name: N, data: z.input<(typeof DOMAIN_EVENTS)[N]>): Promise<void> {
  const event = { id: newId(), name, at: ctx.now().toISOString(), data: DOMAIN_EVENTS[name].parse(data) };
  await enqueueJob(ctx, fanOutDefinition, event, { key: `event:${event.id}` });
}

export interface Subscription<N extends EventName = EventName> {
  event: N;
  subscriber: string;
  job: JobDefinition<DomainEvent<N>>;
}

/**
 * A subscriber of one event, run as its own job kind (`on:<event>:<subscriber>`), so its retries
 * touch no other subscriber. Listed in server/jobs/registry.server.ts.
 */
export function onEvent<N extends EventName>(
  event: N,
  subscriber: string,
  run: (ctx: ServiceContext, event: DomainEvent<N>, job: JobRun) => Promise<void>,
  options: { maxAttempts?: number; retryMs?: number } = {},
): Subscription<N> {
  const payload = envelope.extend({ name: z.literal(event), data: DOMAIN_EVENTS[event] }) as unknown as z.ZodType<DomainEvent<N>>;
  return { event, subscriber, job: defineJob({ kind: `on:${event}:${subscriber}`, payload, run, ...options }) };
}

// Its handler is set by eventJobs; emit only needs its kind and schema.
const fanOutDefinition = defineJob<DomainEvent>({
  kind: EVENT_KIND,
  payload: envelope as unknown as z.ZodType<DomainEvent>,
  run: async () => {
    throw new Error('the event fan-out runs only in a registry made by eventJobs');
  },
});

/**
 * The job kinds of the events: the fan-out (one job per subscriber of the event, keyed by event
 * and subscriber, so a fan-out run twice makes each delivery once) and every subscription's own.
 */
export function eventJobs(subscriptions: readonly Subscription<any>[]): JobDefinition<any>[] {
  const seen = new Set<string>();
  for (const s of subscriptions) {
    const key = `${s.event}:${s.subscriber}`;
    if (seen.has(key)) throw new Error(`"${s.subscriber}" subscribes to ${s.event} twice`);
    seen.add(key);
  }
  const fanOut = defineJob<DomainEvent>({
    ...fanOutDefinition,
    run: async (ctx, event) => {
      for (const s of subscriptions) {
        if (s.event === event.name) await enqueueJob(ctx, s.job, event, { key: `event:${event.id}:${s.subscriber}` });
      }
    },
  });
  return [fanOut, ...subscriptions.map((s) => s.job)];
}
