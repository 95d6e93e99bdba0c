import type { MailDelivery, NotificationKind } from '~/db/schema';
import { endFollowsByLink, writerName } from '~/features/follows/follows.service.server';
import { emit } from '~/kernel/events.server';
import { AppError } from '~/lib/core/errors';
import { newId } from '~/lib/core/ids.server';
import { MESSAGES } from '~/lib/texts/messages';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import type { ServiceContext } from '~/lib/core/service-context';
import { type MailTokenSubject, readMailToken, signMailToken } from '~/features/mail/mail.service.server';
import * as repo from './newsletter.repo.server';
import type { SubscribeInput } from './newsletter.schema';

/**
 * Subscribes an email to the newsletter; anyone may (docs/product.md#who-can-do-what). Emails are stored lower-cased so
 * 'Ann@x.org' and 'ann@x.org' are one subscriber; a second time is a 409 with its own message.
 * Double opt-in: the address gets a confirmation mail and nothing else until it is confirmed,
 * except a signed-in reader subscribing the account email they already proved
 * (docs/decisions/023). The event that has mail send the confirmation commits with the row.
 */
export async function subscribe(ctx: ServiceContext, input: SubscribeInput): Promise<{ message: string; confirmationSent: boolean }> {
  await ctx.limit(RATE_LIMITS.subscribe);
  const email = input.email.toLowerCase();
  const proven = ctx.user !== null && ctx.user.email.toLowerCase() === email && (await repo.isEmailVerified(ctx.db, ctx.user.id));
  const now = ctx.now().toISOString();
  return ctx.db.transaction().execute(async (trx) => {
    const id = newId();
    const inserted = await repo.insertSubscriber(trx, { id, email, created_at: now, confirmed_at: proven ? now : null });
    if (!inserted) throw new AppError('conflict', MESSAGES.alreadySubscribedMessage);
    if (!proven) await emit({ ...ctx, db: trx }, 'subscriber.pending', { subscriberId: id, email });
    return { message: MESSAGES.subscribeSuccessMessage, confirmationSent: !proven };
  });
}

/**
 * A subscriber an import brings (docs/decisions/072): kept pending with our confirmation mail
 * (double opt-in, as a new subscription, its words telling the move: docs/decisions/090), or confirmed at once when the operator stated they
 * consented. An address already here is left as it is. Addresses that bounced stay out: the send
 * queue never mails them.
 */
export async function importSubscriber(
  ctx: ServiceContext,
  subscriber: { email: string; createdAt: string | null; consented: boolean; importedFrom: string; importedBy: string; importedSite?: string | null },
): Promise<'pending' | 'confirmed' | 'exists'> {
  const email = subscriber.email.toLowerCase();
  const now = ctx.now().toISOString();
  return ctx.db.transaction().execute(async (trx) => {
    const id = newId();
    const inserted = await repo.insertSubscriber(trx, {
      id,
      email,
      created_at: subscriber.createdAt ?? now,
      confirmed_at: subscriber.consented ? now : null,
      // Its confirmation mail tells the move from there by this writer (docs/decisions/090).
      imported_from: subscriber.importedFrom,
      imported_by: subscriber.importedBy,
      // A whole site's import: the old site moved it, not the admin (docs/decisions/095).
      imported_site: subscriber.importedSite ?? null,
    });
    if (!inserted) return 'exists';
    if (subscriber.consented) return 'confirmed';
    await emit({ ...ctx, db: trx }, 'subscriber.pending', { subscriberId: id, email });
    return 'pending';
  });
}

const invalidLink = () => new AppError('not_found', MESSAGES.mailLinkInvalid);

function subjectOf(secret: string, token: string, kinds: MailTokenSubject['kind'][]): MailTokenSubject {
  const subject = readMailToken(secret, token);
  if (!subject || !kinds.includes(subject.kind)) throw invalidLink();
  return subject;
}

/** The confirmation link: marks the address confirmed (again is fine). */
export async function confirmSubscription(ctx: ServiceContext, secret: string, token: string): Promise<{ email: string; manageToken: string }> {
  const subject = subjectOf(secret, token, ['confirm']);
  if (subject.kind !== 'confirm') throw invalidLink();
  const { subscriberId } = subject;
  const { exists } = await ctx.db.transaction().execute(async (db) => {
    const confirmed = await repo.confirmSubscriber(db, subscriberId, ctx.now().toISOString());
    if (confirmed.confirmedNow) await emit({ ...ctx, db }, 'subscriber.confirmed', { subscriberId });
    return confirmed;
  });
  if (!exists) throw invalidLink();
  const subscriber = (await repo.findSubscriber(ctx.db, { id: subject.subscriberId }))!;
  return { email: subscriber.email, manageToken: signMailToken(secret, { kind: 'newsletter', subscriberId: subscriber.id }) };
}

/** What an unsubscribe link would end, for its confirmation page. */
export type MailLinkTarget =
  | { kind: 'newsletter'; email: string; delivery: MailDelivery }
  | { kind: 'follow'; writerName: string }
  | { kind: 'follows' }
  | { kind: 'notice'; noticeKind: NotificationKind }
  | { kind: 'notices' }
  | { kind: 'gone' };

export async function describeMailLink(ctx: ServiceContext, secret: string, token: string): Promise<MailLinkTarget> {
  const subject = subjectOf(secret, token, ['newsletter', 'follow', 'follows', 'notice', 'notices']);
  if (subject.kind === 'notice') return { kind: 'notice', noticeKind: subject.noticeKind };
  if (subject.kind === 'notices') return { kind: 'notices' };
  if (subject.kind === 'newsletter') {
    const subscriber = await repo.findSubscriber(ctx.db, { id: subject.subscriberId });
    // Ended already (by this link, or another way): a genuine link, nothing left to end.
    if (!subscriber) return { kind: 'gone' };
    return { kind: 'newsletter', email: subscriber.email, delivery: subscriber.delivery };
  }
  if (subject.kind === 'follow') return { kind: 'follow', writerName: (await writerName(ctx, subject.writerId)) ?? MESSAGES.defaultDisplayName };
  return { kind: 'follows' };
}

/**
 * One-click unsubscribe (RFC 8058), no login: ends what the link was for. Doing it twice is not
 * an error: a mail client may POST again. The newsletter and follows end here, at once, before
 * any next mail; notification mails end by the 'mail.stopped' event in the notifications feature
 * (docs/decisions/071).
 */
export async function unsubscribeByLink(
  ctx: ServiceContext,
  secret: string,
  token: string,
): Promise<{ kind: MailTokenSubject['kind']; email?: string; writerName?: string | null; noticeKind?: NotificationKind }> {
  const subject = subjectOf(secret, token, ['newsletter', 'follow', 'follows', 'notice', 'notices']);
  switch (subject.kind) {
    case 'confirm':
      throw invalidLink();
    case 'newsletter': {
      const subscriber = await repo.findSubscriber(ctx.db, { id: subject.subscriberId });
      await repo.deleteSubscriber(ctx.db, subject.subscriberId);
      ctx.log.info({ subscriber: subject.subscriberId }, 'newsletter: unsubscribed by link');
      return { kind: 'newsletter', email: subscriber?.email };
    }
    case 'follow':
      await endFollowsByLink(ctx, subject.followerId, subject.writerId);
      return { kind: 'follow', writerName: await writerName(ctx, subject.writerId) };
    case 'follows':
      await endFollowsByLink(ctx, subject.followerId);
      return { kind: 'follows' };
    case 'notice':
      await emit(ctx, 'mail.stopped', { kind: 'notice', userId: subject.userId, noticeKind: subject.noticeKind });
      return { kind: 'notice', noticeKind: subject.noticeKind };
    case 'notices':
      await emit(ctx, 'mail.stopped', { kind: 'notices', userId: subject.userId });
      return { kind: 'notices' };
  }
}

/** Whether the signed-in reader's account email is on the list (the form shows it locked on every visit); null for visitors. */
export async function findMySubscription(ctx: ServiceContext): Promise<{ email: string; confirmed: boolean } | null> {
  if (!ctx.user) return null;
  const subscriber = await repo.findSubscriber(ctx.db, { email: ctx.user.email });
  return subscriber ? { email: subscriber.email, confirmed: subscriber.confirmed_at !== null } : null;
}

/** How many addresses get the newsletter: confirmed ones only (the home page's figures). */
export async function countSubscribers(ctx: ServiceContext): Promise<number> {
  return repo.countConfirmedSubscribers(ctx.db);
}

/** The newsletter part of the preferences page, by link or for the signed-in reader's email. */
export async function newsletterPreferences(ctx: ServiceContext, by: { secret: string; token: string } | 'me'): Promise<{ email: string; delivery: MailDelivery; confirmed: boolean } | null> {
  const subscriber = await findSubscriberFor(ctx, by);
  return subscriber ? { email: subscriber.email, delivery: subscriber.delivery, confirmed: subscriber.confirmed_at !== null } : null;
}

export async function setNewsletterDelivery(ctx: ServiceContext, by: { secret: string; token: string } | 'me', delivery: MailDelivery): Promise<void> {
  const subscriber = await findSubscriberFor(ctx, by);
  if (!subscriber) throw new AppError('not_found', MESSAGES.notSubscribed);
  await repo.setSubscriberDelivery(ctx.db, subscriber.id, delivery);
}

/** The signed-in reader ends the newsletter for their account email. */
export async function unsubscribeMe(ctx: ServiceContext): Promise<void> {
  const subscriber = await findSubscriberFor(ctx, 'me');
  if (subscriber) await repo.deleteSubscriber(ctx.db, subscriber.id);
}

async function findSubscriberFor(ctx: ServiceContext, by: { secret: string; token: string } | 'me') {
  if (by === 'me') {
    if (!ctx.user) throw new AppError('unauthenticated', MESSAGES.authRequired);
    return repo.findSubscriber(ctx.db, { email: ctx.user.email });
  }
  const subject = subjectOf(by.secret, by.token, ['newsletter']);
  if (subject.kind !== 'newsletter') throw invalidLink();
  const subscriber = await repo.findSubscriber(ctx.db, { id: subject.subscriberId });
  if (!subscriber) throw invalidLink();
  return subscriber;
}
