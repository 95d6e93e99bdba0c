import { ownRowsOf, type ViewerWrites } from '~/db/freshness-kit';

/** Whose signed-in kept pages a write to the exports feature's table makes stale (docs/decisions/076, 078). */
export const EXPORTS_VIEWER_WRITES: ViewerWrites = {
  // The writer's own exports (docs/decisions/074).
  exports: ownRowsOf('user_id'),
};
