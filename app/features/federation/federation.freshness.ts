import { blog, type FreshnessRule } from '~/db/freshness-kit';

/**
 * What the federation feature's tables make stale (docs/decisions/055, 071, 080). Gathered with the
 * other features' in app/db/freshness.ts.
 */
export const FEDERATION_FRESHNESS: readonly FreshnessRule[] = [
  // Likes and boosts from other servers are counted on the post's page; they are never updated.
  { table: 'remote_reactions', on: { insert: true, delete: true }, stale: [blog('blog_id')] },
];
