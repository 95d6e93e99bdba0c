import type { Kysely } from 'kysely';
import type { Database, NotificationDelivery, NotificationKind } from '~/db/schema';
import type { ServiceContext } from '~/lib/core/service-context';
import { presentNotification } from './notifications.presenter';
import * as repo from './notifications.repo.server';
import { DEFAULT_NOTIFICATION_DELIVERY, NOTIFICATION_KINDS } from './notifications.schema';

/** One line of a notification mail: what happened and where to see it (a path on this site). */
export interface NoticeLine {
  text: string;
  href: string;
}

/** A member's choice for every kind, the defaults filled in for kinds never chosen. */
export async function deliveriesOf(db: Kysely<Database>, userId: string): Promise<Record<NotificationKind, NotificationDelivery>> {
  const chosen = new Map((await repo.findSettings(db, userId)).map((r) => [r.kind, r.delivery]));
  return Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, chosen.get(kind) ?? DEFAULT_NOTIFICATION_DELIVERY[kind]])) as Record<NotificationKind, NotificationDelivery>;
}

/**
 * What a queued notification mail says when it is sent, read then rather than when it was
 * queued: a member who turned a kind's mail off since, or whose notification is gone (purged,
 * its blog deleted), gets nothing (an empty list).
 */
export async function noticesForMail(
  ctx: Pick<ServiceContext, 'db'>,
  q: { notificationId: string; userId: string; kind: NotificationKind } | { userId: string; from: string; to: string },
): Promise<NoticeLine[]> {
  const deliveries = await deliveriesOf(ctx.db, q.userId);
  if ('notificationId' in q) {
    if (deliveries[q.kind] !== 'instant') return [];
    const rows = await repo.listForMail(ctx.db, { id: q.notificationId });
    return rows.filter((r) => r.recipient_id === q.userId).map((r) => line(r, q.userId));
  }
  const kinds = NOTIFICATION_KINDS.filter((kind) => deliveries[kind] === 'digest');
  const rows = await repo.listForMail(ctx.db, { recipientId: q.userId, from: q.from, to: q.to, kinds });
  return rows.map((r) => line(r, q.userId));
}

/**
 * Who gets a daily notification digest for the period [from, to): every member with activity in
 * it of a kind they get daily, with the address to mail it to. Mail queues the digests
 * (app/features/mail, docs/decisions/071).
 */
export async function noticeDigestRecipients(ctx: Pick<ServiceContext, 'db'>, period: { from: string; to: string }): Promise<{ userId: string; email: string }[]> {
  const defaultDigestKinds = NOTIFICATION_KINDS.filter((kind) => DEFAULT_NOTIFICATION_DELIVERY[kind] === 'digest');
  const recipients: { userId: string; email: string }[] = [];
  for (const userId of await repo.digestRecipients(ctx.db, { ...period, defaultDigestKinds })) {
    const email = await repo.findUserEmail(ctx.db, userId);
    if (email) recipients.push({ userId, email });
  }
  return recipients;
}

function line(row: Awaited<ReturnType<typeof repo.listForMail>>[number], userId: string): NoticeLine {
  const shown = presentNotification(row, userId);
  return { text: shown.text, href: shown.href };
}
