import { followed, type ViewerWrites } from '~/db/freshness-kit';

/** Whose signed-in kept pages a write to the tags feature's tables makes stale (docs/decisions/076, 078). */
export const TAGS_VIEWER_WRITES: ViewerWrites = {
  // A post's tags are written with its `tags_text`, which moves its revision and the lists (docs/decisions/069).
  tags: followed,
  blog_tags: followed,
};
