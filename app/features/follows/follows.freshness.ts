import { ownRowsOf, type ViewerWrites } from '~/db/freshness-kit';

/** Whose signed-in kept pages a write to the follows feature's table makes stale (docs/decisions/076, 078). */
export const FOLLOWS_VIEWER_WRITES: ViewerWrites = {
  // The follower's follow button; a writer's follower count is on the author page, which no memo keeps.
  follows: ownRowsOf('follower_id'),
};
