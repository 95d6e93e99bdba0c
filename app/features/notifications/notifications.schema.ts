import { z } from 'zod';
import type { NotificationDelivery, NotificationKind } from '~/db/schema';

/** What a member is told of, in the order the preferences page lists them. */
export const NOTIFICATION_KINDS = ['comment', 'reply', 'like_post', 'like_comment', 'follow', 'moderation'] as const satisfies readonly NotificationKind[];
export const NotificationKindSchema = z.enum(NOTIFICATION_KINDS);

/** By mail at once, in one mail a day, or not by mail (the app shows every kind regardless). */
export const NOTIFICATION_DELIVERIES = ['instant', 'digest', 'off'] as const satisfies readonly NotificationDelivery[];
export const NotificationDeliverySchema = z.enum(NOTIFICATION_DELIVERIES, 'Choose at once, daily digest or no mail.');

/**
 * What a member gets by mail before choosing: what someone said to them at once, what others did
 * (likes, follows) once a day, and moderators' decisions at once.
 */
export const DEFAULT_NOTIFICATION_DELIVERY: Record<NotificationKind, NotificationDelivery> = {
  comment: 'instant',
  reply: 'instant',
  like_post: 'digest',
  like_comment: 'digest',
  follow: 'digest',
  moderation: 'instant',
};

/** The preferences page's labels, one per kind. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  comment: 'Comments on my blogs',
  reply: 'Replies to my comments',
  like_post: 'Likes on my blogs',
  like_comment: 'Likes on my comments',
  follow: 'New followers',
  moderation: 'Moderators’ decisions about my writing',
};

export const NOTIFICATION_DELIVERY_LABELS: Record<NotificationDelivery, string> = {
  instant: 'At once',
  digest: 'Daily digest',
  off: 'No mail',
};

/** The page and the API show this many groups at a time; MAX for a script that asks for more. */
export const NOTIFICATIONS_PAGE_SIZE = 20;
export const NOTIFICATIONS_MAX_PAGE_SIZE = 50;

/** A notification is kept this long after its last activity, read or not. */
export const NOTIFICATION_KEEP_DAYS = 90;

const pageNumber = z.coerce.number('Must be a whole number').int('Must be a whole number').min(1, 'Must be at least 1');

export const ListNotificationsQuerySchema = z.object({
  page: pageNumber.default(1),
  limit: pageNumber.max(NOTIFICATIONS_MAX_PAGE_SIZE, `Must be at most ${NOTIFICATIONS_MAX_PAGE_SIZE}`).default(NOTIFICATIONS_PAGE_SIZE),
});
export type ListNotificationsQuery = z.infer<typeof ListNotificationsQuerySchema>;

/** Mark these read, or every one when `ids` is left out (the page's "Mark all read"). */
export const MarkNotificationsReadSchema = z.object({
  ids: z.array(z.string().trim().min(1).max(64)).min(1).max(NOTIFICATIONS_MAX_PAGE_SIZE).optional(),
});
export type MarkNotificationsReadInput = z.infer<typeof MarkNotificationsReadSchema>;

/** The preferences page's form: one choice per kind; a kind left out keeps what it had. */
export const NotificationSettingsSchema = z.object(
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, NotificationDeliverySchema.optional()])) as Record<NotificationKind, z.ZodOptional<typeof NotificationDeliverySchema>>,
);
export type NotificationSettingsInput = z.infer<typeof NotificationSettingsSchema>;

/** One group as the page and the API show it. */
export const NotificationSchema = z.object({
  id: z.string(),
  kind: NotificationKindSchema,
  text: z.string().describe('What happened, ready to show: "Jonas and 4 others liked “Title”"'),
  href: z.string().describe('The thing it is about, a path on this site'),
  actorName: z.string().nullable(),
  actorPhoto: z.string().nullable(),
  actorCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  read: z.boolean(),
});
export type NotificationView = z.infer<typeof NotificationSchema>;
