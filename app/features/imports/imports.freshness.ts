import { unshown, type ViewerWrites } from '~/db/freshness-kit';

/** Whose signed-in kept pages a write to the imports feature's tables makes stale (docs/decisions/076, 078). */
export const IMPORTS_VIEWER_WRITES: ViewerWrites = {
  // An import's bookkeeping, and old addresses (answered as redirects, never as a page; docs/decisions/072).
  import_runs: unshown,
  import_items: unshown,
  legacy_paths: unshown,
  // Which account each source author's posts went to, for the next import (docs/decisions/083).
  import_authors: unshown,
  // What a run's scan read, waiting to be written part by part (docs/decisions/091).
  import_staging: unshown,
};
