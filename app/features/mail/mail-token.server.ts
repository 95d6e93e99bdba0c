import { createHmac, timingSafeEqual } from 'node:crypto';
import type { NotificationKind } from '~/db/schema';

/**
 * What a mailed link may do without a login (docs/decisions/023): confirm a subscription,
 * manage or end one, end one follow, or end every follow of a reader; stop one kind of
 * notification mail, or all of them (docs/decisions/062). The link carries the
 * subject signed with SESSION_SECRET, so it is unguessable, per recipient, needs no stored
 * token, and keeps working for as long as the subscription exists (RFC 8058 asks for that).
 */
export type MailTokenSubject =
  | { kind: 'confirm'; subscriberId: string }
  | { kind: 'newsletter'; subscriberId: string }
  | { kind: 'follow'; followerId: string; writerId: string }
  | { kind: 'follows'; followerId: string }
  | { kind: 'notice'; userId: string; noticeKind: NotificationKind }
  | { kind: 'notices'; userId: string };

const PREFIX = { confirm: 'c', newsletter: 'n', follow: 'f', follows: 'a', notice: 'm', notices: 'o' } as const;
const NOTICE_KINDS: readonly string[] = ['comment', 'reply', 'like_post', 'like_comment', 'follow', 'moderation'] satisfies NotificationKind[];

function payloadOf(subject: MailTokenSubject): string {
  switch (subject.kind) {
    case 'confirm':
    case 'newsletter':
      return `${PREFIX[subject.kind]}:${subject.subscriberId}`;
    case 'follow':
      return `f:${subject.followerId}:${subject.writerId}`;
    case 'follows':
      return `a:${subject.followerId}`;
    case 'notice':
      return `m:${subject.userId}:${subject.noticeKind}`;
    case 'notices':
      return `o:${subject.userId}`;
  }
}

const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(`afterglow-mail-link\n${payload}`).digest();

export function signMailToken(secret: string, subject: MailTokenSubject): string {
  const payload = payloadOf(subject);
  return `${Buffer.from(payload).toString('base64url')}.${sign(secret, payload).toString('base64url')}`;
}

/** The subject of a token this site signed; null for anything else. */
export function readMailToken(secret: string, token: string): MailTokenSubject | null {
  const [encoded, signature, extra] = token.split('.');
  if (!encoded || !signature || extra !== undefined) return null;
  const payload = Buffer.from(encoded, 'base64url').toString();
  const expected = sign(secret, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const [prefix, a, b, more] = payload.split(':');
  if (!a || more !== undefined) return null;
  if (prefix === 'c' && !b) return { kind: 'confirm', subscriberId: a };
  if (prefix === 'n' && !b) return { kind: 'newsletter', subscriberId: a };
  if (prefix === 'f' && b) return { kind: 'follow', followerId: a, writerId: b };
  if (prefix === 'a' && !b) return { kind: 'follows', followerId: a };
  if (prefix === 'm' && b && NOTICE_KINDS.includes(b)) return { kind: 'notice', userId: a, noticeKind: b as NotificationKind };
  if (prefix === 'o' && !b) return { kind: 'notices', userId: a };
  return null;
}
