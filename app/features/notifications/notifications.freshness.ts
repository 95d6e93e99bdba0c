import { ownRowsOf, unshown, type ViewerWrites } from '~/db/freshness-kit';

/** Whose signed-in kept pages a write to the notifications feature's tables makes stale (docs/decisions/076, 078). */
export const NOTIFICATIONS_VIEWER_WRITES: ViewerWrites = {
  // The recipient's bell (its unread count).
  notifications: ownRowsOf('recipient_id'),
  notification_settings: ownRowsOf('user_id'),
  // Who is in a notification's group: on the notifications page only (the bell counts notifications).
  notification_actors: unshown,
};
