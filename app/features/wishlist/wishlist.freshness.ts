import { ownRowsOf, type ViewerWrites } from '~/db/freshness-kit';

/** Whose signed-in kept pages a write to the wishlist feature's table makes stale (docs/decisions/076, 078). */
export const WISHLIST_VIEWER_WRITES: ViewerWrites = {
  // Its owner's wishlist marks.
  wishlist: ownRowsOf('user_id'),
};
