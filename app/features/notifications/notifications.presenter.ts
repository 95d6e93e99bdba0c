import type { NotificationKind } from '~/db/schema';
import { blogPathOf } from '~/features/blogs/blog-path';
import { MESSAGES } from '~/lib/texts/messages';
import type { NotificationView } from './notifications.schema';

/** What a notification row carries for its text and link (repo rows of the list and of mails). */
export interface NotificationFacts {
  id: string;
  recipient_id?: string;
  kind: NotificationKind;
  blog_id: string | null;
  comment_id: string | null;
  actor_id: string | null;
  actor_count: number;
  detail: string | null;
  created_at: string;
  updated_at: string;
  read_at: string | null;
  blog_title: string | null;
  blog_slug: string | null;
  blog_owner_id: string | null;
  blog_availability: string | null;
  blog_removed_at: string | null;
  actor_name: string | null;
  actor_photo: string | null;
}

/** A moderator's decision as the notification keeps it: the action, the reason, what it was about. */
export interface ModerationDetail {
  action: 'hide' | 'restore' | 'delete' | 'approve';
  target: 'blog' | 'comment';
  reason: string;
  title: string;
}

export const encodeModerationDetail = (detail: ModerationDetail) => JSON.stringify(detail);

function moderationDetail(detail: string | null): ModerationDetail | null {
  try {
    return detail ? (JSON.parse(detail) as ModerationDetail) : null;
  } catch {
    return null;
  }
}

const quoted = (title: string) => `“${title}”`;
const MODERATION_VERBS: Record<ModerationDetail['action'], string> = { hide: 'hid', restore: 'restored', delete: 'deleted', approve: 'approved' };

/**
 * "Jonas", "Jonas and Ann", "Jonas and 4 others": the latest person named, the rest counted.
 * A group whose latest person's account is gone still says how many there were.
 */
export function actorsPhrase(name: string | null, count: number): string {
  const first = name || (count > 1 ? 'Someone' : MESSAGES.defaultDisplayName);
  if (count <= 1) return first;
  if (count === 2) return `${first} and 1 other`;
  return `${first} and ${count - 1} others`;
}

/**
 * The row as the page, the API and mails show it. A blog's title is shown only while the
 * recipient may see the blog (a reply on a post its writer hid since must not show its title).
 */
export function presentNotification(row: NotificationFacts, recipientId: string): NotificationView {
  const visible = row.blog_id !== null && row.blog_title !== null && (row.blog_owner_id === recipientId || (row.blog_availability === 'Public' && row.blog_removed_at === null));
  const title = visible ? quoted(row.blog_title!) : 'a blog';
  const blogHref = visible ? blogPathOf({ id: row.blog_id!, slug: row.blog_slug }) : '/notifications';
  const who = actorsPhrase(row.actor_name, Number(row.actor_count));
  const commentHref = visible && row.comment_id ? `${blogHref}#comment-${encodeURIComponent(row.comment_id)}` : blogHref;
  let text: string;
  let href = blogHref;
  switch (row.kind) {
    case 'comment':
      text = `${who} commented on ${title}`;
      href = commentHref;
      break;
    case 'reply':
      text = `${who} replied to your comment on ${title}`;
      href = commentHref;
      break;
    case 'like_post':
      text = `${who} liked ${title}`;
      break;
    case 'like_comment':
      text = `${who} liked your comment on ${title}`;
      href = commentHref;
      break;
    case 'follow':
      text = `${who} followed you`;
      href = row.actor_id && Number(row.actor_count) === 1 ? `/authors/${encodeURIComponent(row.actor_id)}` : '/notifications';
      break;
    case 'moderation': {
      const d = moderationDetail(row.detail);
      const what = d?.target === 'comment' ? `your comment on ${d.title ? quoted(d.title) : 'a blog'}` : `your blog ${d?.title ? quoted(d.title) : ''}`.trim();
      text = `A moderator ${d ? MODERATION_VERBS[d.action] : 'acted on'} ${what}${d?.reason ? `: ${d.reason}` : ''}`;
      href = d?.action === 'delete' ? '/notifications' : blogHref;
      break;
    }
  }
  return {
    id: row.id,
    kind: row.kind,
    text,
    href,
    actorName: row.kind === 'moderation' ? null : row.actor_name,
    actorPhoto: row.kind === 'moderation' ? null : row.actor_photo,
    actorCount: Number(row.actor_count),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    read: row.read_at !== null,
  };
}
