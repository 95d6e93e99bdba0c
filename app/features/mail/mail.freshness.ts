import { everyone, unshown, type ViewerWrites } from '~/db/freshness-kit';

/** Whose signed-in kept pages a write to the mail feature's tables makes stale (docs/decisions/076, 078). */
export const MAIL_VIEWER_WRITES: ViewerWrites = {
  mail_queue: unshown,
  mail_messages: unshown,
  mail_bounces: everyone,
};
