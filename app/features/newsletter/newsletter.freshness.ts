import { everyone, type ViewerWrites } from '~/db/freshness-kit';

/** Whose signed-in kept pages a write to the newsletter feature's table makes stale (docs/decisions/076, 078). */
export const NEWSLETTER_VIEWER_WRITES: ViewerWrites = {
  // A subscription shows on the home page of the subscriber.
  subscribers: everyone,
};
