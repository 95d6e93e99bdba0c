import type { MailKind, MailStream, NotificationKind } from '~/db/schema';
import { type NoticeLine, noticeDigestRecipients, noticesForMail } from '~/features/notifications/notification-mail.service.server';
import { newId } from '~/lib/core/ids.server';
import type { ServiceContext } from '~/lib/core/service-context';
import { MESSAGES } from '~/lib/texts/messages';
import { onEvent } from '~/kernel/events.server';
import { BodyUnrenderable, renderMarkdown } from '~/features/blogs/blogs.service.server';
import * as repo from './mail.repo.server';
import type { MailTokenSubject } from './mail-token.server';

// Signed links in mails are mail's; the features whose links they are read them through here.
export { type MailTokenSubject, readMailToken, signMailToken } from './mail-token.server';
// The export-ready mail's text is mail's; the exports job sends it (docs/decisions/074).
export { exportReadyMail, type Mail } from './mail-templates.server';

/** Attempts before a row that keeps meeting 4xx answers or a dead server is given up as failed. */
export const MAIL_MAX_ATTEMPTS = 8;
/** The longest wait between two attempts, however many came before. */
const MAX_BACKOFF_MS = 6 * 3600_000;

/**
 * Announces a blog that just became Public to the confirmed newsletter subscribers who chose a
 * mail per post and to the writer's followers who did (on "blog.published", below). A blog is
 * announced once: made Hidden and Public again, it is not sent again, and a delivery of the event
 * run twice queues nothing the second time. Whether the blog is still shown is asked again when
 * each mail is sent.
 */
export async function announceBlog(ctx: ServiceContext, blog: { id: string; owner_id: string }, publishedAt: string): Promise<{ queued: number }> {
  const now = publishedAt;
  const messageId = newId();
  const made = await repo.insertMessage(ctx.db, { id: messageId, kind: 'post', key: `post:${blog.id}`, blog_id: blog.id, created_at: now });
  if (!made) return { queued: 0 };
  const subscribers = await repo.queueForSubscribers(ctx.db, ctx.dialect, { messageId, delivery: 'post', exceptEmail: ((await repo.findUserEmail(ctx.db, blog.owner_id)) ?? '').toLowerCase(), now });
  const followers = await repo.queueForFollowers(ctx.db, ctx.dialect, { messageId, delivery: 'post', writerIds: [blog.owner_id], now, refPerWriter: true });
  ctx.log.info({ blog: blog.id, message: messageId, queued: subscribers + followers }, 'mail: blog announced');
  return { queued: subscribers + followers };
}

/**
 * Queues one mail of `kind` to one address, once per `key`: the message and its queue row
 * commit together, and a job run again finds the key taken and queues nothing.
 */
async function queueOnce(ctx: ServiceContext, q: { kind: MailKind; key: string; email: string; stream: MailStream; ref: string; notificationId?: string }): Promise<void> {
  const now = ctx.now().toISOString();
  const messageId = newId();
  await ctx.db.transaction().execute(async (db) => {
    if (!(await repo.insertMessage(db, { id: messageId, kind: q.kind, key: q.key, notification_id: q.notificationId ?? null, created_at: now }))) return;
    await repo.insertQueueRow(db, { id: newId(), message_id: messageId, email: q.email, stream: q.stream, ref: q.ref, now });
  });
}

/** The double opt-in mail of a new subscriber (the 'subscriber.pending' event). */
async function queueConfirmation(ctx: ServiceContext, subscriber: { id: string; email: string }): Promise<void> {
  await queueOnce(ctx, { kind: 'confirm', key: `confirm:${subscriber.id}`, email: subscriber.email, stream: 'confirm', ref: subscriber.id });
}

/**
 * The mail of one notification to its recipient at once, once per event (`eventId`). What it
 * says is read when it is sent (docs/decisions/062).
 */
async function queueNoticeMail(ctx: ServiceContext, eventId: string, q: { notificationId: string; userId: string; kind: NotificationKind; email: string }): Promise<void> {
  await queueOnce(ctx, { kind: 'notice', key: `notice:${eventId}`, email: q.email.toLowerCase(), stream: 'notice', ref: `${q.userId}:${q.kind}`, notificationId: q.notificationId });
}

/** Queues a member's daily notification digest for a period, once (the key holds the day). */
async function queueNoticeDigest(ctx: ServiceContext, q: { userId: string; email: string; day: string; from: string; to: string }): Promise<boolean> {
  const now = ctx.now().toISOString();
  const messageId = newId();
  const made = await repo.insertMessage(ctx.db, { id: messageId, kind: 'notice_digest', key: `notice_digest:${q.userId}:${q.day}`, period_start: q.from, period_end: q.to, created_at: now });
  if (made) await repo.insertQueueRow(ctx.db, { id: newId(), message_id: messageId, email: q.email.toLowerCase(), stream: 'notice', ref: q.userId, now });
  return made;
}

/** The digest period that ended most recently at `hour` UTC. */
export function digestPeriod(now: Date, hour: number): { start: Date; end: Date; day: string } {
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour));
  if (end > now) end.setUTCDate(end.getUTCDate() - 1);
  const start = new Date(end.getTime() - 24 * 3600_000);
  return { start, end, day: end.toISOString().slice(0, 10) };
}

/**
 * Queues the daily notification digests of the period that ended last at `hour` UTC: one mail
 * per member with activity in it of a kind they get daily (who, notifications says). Each
 * member's is keyed by the day, so instances racing make it once.
 */
export async function prepareNoticeDigests(ctx: ServiceContext, hour: number): Promise<{ day: string; queued: number }> {
  const period = digestPeriod(ctx.now(), hour);
  const from = period.start.toISOString();
  const to = period.end.toISOString();
  let queued = 0;
  for (const { userId, email } of await noticeDigestRecipients(ctx, { from, to })) {
    if (await queueNoticeDigest(ctx, { userId, email, day: period.day, from, to })) queued++;
  }
  if (queued > 0) ctx.log.info({ day: period.day, queued }, 'notifications: daily digests queued');
  return { day: period.day, queued };
}

/**
 * Makes the daily digest of the period that ended last at `hour` UTC, once, whichever instance
 * comes first: one mail to every confirmed digest subscriber, and to every digest follower of a
 * writer who published in the period. Nothing is queued for a day without posts.
 */
export async function prepareDailyDigest(ctx: ServiceContext, hour: number): Promise<{ day: string; queued: number } | null> {
  const period = digestPeriod(ctx.now(), hour);
  const from = period.start.toISOString();
  const to = period.end.toISOString();
  return ctx.db.transaction().execute(async (trx) => {
    const messageId = newId();
    const made = await repo.insertMessage(trx, { id: messageId, kind: 'digest', key: `digest:${period.day}`, period_start: from, period_end: to, created_at: ctx.now().toISOString() });
    if (!made) return null;
    const writers = await repo.writersOfAnnouncedBlogs(trx, { from, to });
    if (writers.length === 0) return { day: period.day, queued: 0 };
    const now = ctx.now().toISOString();
    const subscribers = await repo.queueForSubscribers(trx, ctx.dialect, { messageId, delivery: 'digest', exceptEmail: '', now });
    const followers = await repo.queueForFollowers(trx, ctx.dialect, { messageId, delivery: 'digest', writerIds: writers, now, refPerWriter: false });
    ctx.log.info({ day: period.day, message: messageId, queued: subscribers + followers }, 'mail: daily digest queued');
    return { day: period.day, queued: subscribers + followers };
  });
}

export interface MailBlog {
  id: string;
  /** The readable part of its address (docs/decisions/069); absent: /blogs/{id}. */
  slug?: string;
  title: string;
  shortDescription: string;
  photo: string | null;
  category: string;
  writerName: string;
  /**
   * A post mail's whole body: the site's sanitised HTML and the writer's Markdown (the plain-text
   * part). Absent in digests, for a post whose writer chose a teaser, and for a body that cannot
   * be rendered now: those mails carry the teaser card (docs/decisions/066).
   */
  body?: { html: string; markdown: string };
}

/** One claimed row with what its mail says; `blogs` empty for a confirmation. */
export interface QueuedMail {
  id: string;
  messageId: string;
  email: string;
  kind: MailKind;
  stream: MailStream;
  attempts: number;
  blogs: MailBlog[];
  /** Signed into the confirmation link (confirmations only). */
  confirm: MailTokenSubject | null;
  /** A confirmation to an address an import brought: where from and who moved the newsletter (docs/decisions/090). */
  moved?: {
    source: string;
    writerName: string | null;
    /** A whole site's import (docs/decisions/095): the old site's name ('' when the archive named none), which moved the newsletter; null for a writer's own. */
    site?: string | null;
  };
  /** Signed into the one-click unsubscribe link. */
  unsubscribe: MailTokenSubject;
  /** What a notification mail tells (empty for the others). */
  notices: NoticeLine[];
}

function unsubscribeSubject(stream: MailStream, kind: MailKind, ref: string): MailTokenSubject {
  if (stream === 'notice') {
    const [userId = '', noticeKind] = ref.split(':');
    return kind === 'notice_digest' ? { kind: 'notices', userId } : { kind: 'notice', userId, noticeKind: noticeKind as NotificationKind };
  }
  if (stream !== 'follow') return { kind: 'newsletter', subscriberId: ref };
  if (kind === 'digest') return { kind: 'follows', followerId: ref };
  const [followerId = '', writerId = ''] = ref.split(':');
  return { kind: 'follow', followerId, writerId };
}

export interface ClaimedBatch {
  /** Ready to send. */
  mails: QueuedMail[];
  /** Claimed rows with nothing left to send (blog hidden or deleted, subscription gone), closed already. */
  dropped: number;
  /** Claimed rows to an address that bounced since they were queued, closed already. */
  bounced: number;
}

/**
 * Claims up to `limit` due rows for `worker` until `leaseMs` from now (a worker that dies lets
 * them go when the lease ends) and gathers what each mail shows.
 */
export async function claimMailBatch(ctx: ServiceContext, q: { worker: string; limit: number; leaseMs: number }): Promise<ClaimedBatch> {
  const now = ctx.now();
  const rows = await repo.claimDue(ctx.db, ctx.dialect, {
    now: now.toISOString(),
    leaseUntil: new Date(now.getTime() + q.leaseMs).toISOString(),
    worker: q.worker,
    limit: q.limit,
  });
  if (rows.length === 0) return { mails: [], dropped: 0, bounced: 0 };
  const bouncedEmails = await repo.bouncedAmong(ctx.db, rows.map((r) => r.email));
  const messages = new Map((await repo.findMessages(ctx.db, [...new Set(rows.map((r) => r.message_id))])).map((m) => [m.id, m]));
  const postBlogIds = [...messages.values()].flatMap((m) => (m.kind === 'post' && m.blog_id ? [m.blog_id] : []));
  const blogsById = new Map((await repo.findPublicBlogs(ctx.db, postBlogIds)).map((b) => [b.id, b]));
  const digestBlogs = new Map<string, MailBlog[]>();

  const batch: ClaimedBatch = { mails: [], dropped: 0, bounced: 0 };
  for (const row of rows) {
    const message = messages.get(row.message_id);
    if (bouncedEmails.has(row.email.toLowerCase())) {
      await repo.markBounced(ctx.db, { id: row.id, email: row.email, reason: 'bounced earlier', now: now.toISOString() });
      batch.bounced++;
      continue;
    }
    let blogs: MailBlog[] = [];
    let confirm: MailTokenSubject | null = null;
    let moved: QueuedMail['moved'];
    let notices: NoticeLine[] = [];
    if (message?.kind === 'notice' && message.notification_id) {
      const [userId = '', kind] = row.ref.split(':');
      notices = await noticesForMail(ctx, { notificationId: message.notification_id, userId, kind: kind as NotificationKind });
    } else if (message?.kind === 'notice_digest' && message.period_start && message.period_end) {
      notices = await noticesForMail(ctx, { userId: row.ref, from: message.period_start, to: message.period_end });
    } else if (message?.kind === 'post') {
      const blog = message.blog_id ? blogsById.get(message.blog_id) : undefined;
      blogs = blog ? [{ ...toMailBlog(blog), ...(await wholeBody(ctx, blog)) }] : [];
    } else if (message?.kind === 'digest' && message.period_start && message.period_end) {
      const key = row.stream === 'follow' ? `${message.id}:${row.ref}` : message.id;
      if (!digestBlogs.has(key)) {
        const writerIds = row.stream === 'follow' ? await repo.followedWritersWithDigest(ctx.db, row.ref) : undefined;
        const ids = await repo.announcedBlogIds(ctx.db, { from: message.period_start, to: message.period_end, writerIds });
        digestBlogs.set(key, (await repo.findPublicBlogs(ctx.db, ids)).map(toMailBlog));
      }
      blogs = digestBlogs.get(key)!;
    } else if (message?.kind === 'confirm') {
      const subscriber = await repo.findSubscriberById(ctx.db, row.ref);
      if (subscriber && !subscriber.confirmed_at) confirm = { kind: 'confirm', subscriberId: subscriber.id };
      if (subscriber?.imported_from) moved = { source: subscriber.imported_from, writerName: subscriber.imported_by_name, site: subscriber.imported_site };
    }
    if (blogs.length === 0 && !confirm && notices.length === 0) {
      await repo.markFailed(ctx.db, row.id, 'nothing to send: the blog is no longer public, the subscription is gone or the notification is');
      batch.dropped++;
      continue;
    }
    batch.mails.push({
      id: row.id,
      messageId: row.message_id,
      email: row.email,
      kind: message!.kind,
      stream: row.stream,
      attempts: row.attempts,
      blogs,
      confirm,
      ...(moved ? { moved } : {}),
      unsubscribe: unsubscribeSubject(row.stream, message!.kind, row.ref),
      notices,
    });
  }
  return batch;
}

/** The body a post mail carries, unless its writer chose a teaser or it cannot be rendered now. */
async function wholeBody(ctx: ServiceContext, blog: { id: string; long_description: string; mail_teaser: number }): Promise<Pick<MailBlog, 'body'>> {
  if (Number(blog.mail_teaser) === 1) return {};
  try {
    // The same render as the post's page (kept by its input, so a thousand recipients render it once).
    return { body: { html: await renderMarkdown(blog.long_description, { imageBases: ctx.imageBases }), markdown: blog.long_description } };
  } catch (error) {
    if (!(error instanceof BodyUnrenderable)) throw error;
    ctx.log.warn({ blog: blog.id }, 'mail: body not rendered; the teaser goes instead');
    return {};
  }
}

function toMailBlog(b: Awaited<ReturnType<typeof repo.findPublicBlogs>>[number]): MailBlog {
  return { id: b.id, slug: b.slug, title: b.title, shortDescription: b.short_description, photo: b.photo, category: b.category, writerName: b.name || MESSAGES.defaultDisplayName };
}

/** How one attempt ended, as the worker classified the SMTP answer. */
export type MailOutcome =
  | { type: 'sent' }
  | { type: 'retry'; error: string }
  | { type: 'bounced'; reason: string }
  | { type: 'failed'; error: string };

/**
 * Records an attempt: sent; bounced (a 5xx at RCPT: that address is skipped from now on);
 * failed for good; or tried again later, waiting `retryMs` doubled after each attempt, until
 * MAIL_MAX_ATTEMPTS.
 */
export async function recordMailOutcome(ctx: ServiceContext, mail: Pick<QueuedMail, 'id' | 'email' | 'attempts'>, outcome: MailOutcome, retryMs: number): Promise<MailOutcome['type']> {
  const now = ctx.now();
  switch (outcome.type) {
    case 'sent':
      await repo.markSent(ctx.db, ctx.dialect, mail.id, now.toISOString());
      return 'sent';
    case 'bounced':
      await repo.markBounced(ctx.db, { id: mail.id, email: mail.email, reason: outcome.reason, now: now.toISOString() });
      return 'bounced';
    case 'failed':
      await repo.markFailed(ctx.db, mail.id, outcome.error);
      return 'failed';
    case 'retry': {
      if (mail.attempts >= MAIL_MAX_ATTEMPTS) {
        await repo.markFailed(ctx.db, mail.id, `gave up after ${mail.attempts} attempts: ${outcome.error}`);
        return 'failed';
      }
      const wait = Math.min(MAX_BACKOFF_MS, retryMs * 2 ** Math.max(0, mail.attempts - 1));
      await repo.markRetry(ctx.db, mail.id, { nextAttemptAt: new Date(now.getTime() + wait).toISOString(), error: outcome.error });
      return 'retry';
    }
  }
}

/** Gives a worker's claimed rows back without counting an attempt (it stops, or its lease runs short). */
export function releaseMailClaims(ctx: ServiceContext, worker: string, ids: string[]): Promise<void> {
  return repo.releaseClaims(ctx.db, worker, ids);
}

export interface MessageStatus {
  label: string;
  createdAt: string;
  queued: number;
  sending: number;
  sent: number;
  failed: number;
  bounced: number;
}

/** What operators see (`npm run mail:status`): counts per message, newest first. */
export async function mailStatus(ctx: ServiceContext, limit = 20): Promise<{ messages: MessageStatus[]; bouncedAddresses: number }> {
  const rows = await repo.statusCounts(ctx.db, limit);
  const byMessage = new Map<string, MessageStatus>();
  for (const row of rows) {
    let entry = byMessage.get(row.message_id);
    if (!entry) {
      const label =
        row.kind === 'post'
          ? `post "${row.title ?? '(deleted blog)'}"`
          : row.kind === 'digest'
            ? `digest ${row.key.slice('digest:'.length)}`
            : row.kind === 'confirm'
              ? 'confirmations'
              : row.kind === 'notice'
                ? 'notifications'
                : 'notification digests';
      byMessage.set(row.message_id, (entry = { label, createdAt: row.created_at, queued: 0, sending: 0, sent: 0, failed: 0, bounced: 0 }));
    }
    entry[row.status as keyof Pick<MessageStatus, 'queued'>] += row.n;
  }
  const messages = [...byMessage.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return { messages, bouncedAddresses: await repo.countBounces(ctx.db) };
}

/** What mail does when something happens elsewhere (listed in server/jobs/registry.server.ts). */
/** A mail queued for an event is due from when the event happened, however late its job ran. */
const asOf = (ctx: ServiceContext, at: string): ServiceContext => ({ ...ctx, now: () => new Date(at) });

export const MAIL_SUBSCRIPTIONS = [
  // A deleted account's address gets nothing more that was waiting to go.
  onEvent('account.deleted', 'mail-cancel', async (ctx, event) => {
    const cancelled = await repo.cancelQueuedTo(ctx.db, event.data.email);
    if (cancelled > 0) ctx.log.info({ cancelled }, 'queued mails of a deleted account cancelled');
  }),
  onEvent('blog.published', 'mail-announce', async (ctx, event) => {
    await announceBlog(ctx, { id: event.data.blogId, owner_id: event.data.ownerId }, event.at);
  }),
  // Double opt-in: the address's confirmation, once (its key), whenever the event runs (docs/decisions/023).
  onEvent('subscriber.pending', 'mail-confirm', async (ctx, event) => {
    await queueConfirmation(asOf(ctx, event.at), { id: event.data.subscriberId, email: event.data.email });
  }),
  onEvent('notification.instant', 'mail-notice', async (ctx, event) => {
    await queueNoticeMail(asOf(ctx, event.at), event.id, event.data);
  }),
];
