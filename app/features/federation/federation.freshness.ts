import { blog, blogsOfPerson, everyone, followed, type FreshnessRule, ROWS, unshown, type ViewerWrites } from '~/db/freshness-kit';

/**
 * What the federation feature's tables make stale (docs/decisions/055, 071, 080). Gathered with the
 * other features' in app/db/freshness.ts.
 */
export const FEDERATION_FRESHNESS: readonly FreshnessRule[] = [
  // Likes and boosts from other servers are counted on the post's page; they are never updated.
  { table: 'remote_reactions', on: { insert: true, delete: true }, stale: [blog('blog_id')] },
  // A writer's handle is shown under each of her posts (docs/decisions/088); a rename moves it
  // (the pages she commented on move too: the rule is the person's, as for her name).
  { table: 'actor_handles', on: ROWS, stale: [blogsOfPerson('user_id')] },
];

/** Whose signed-in kept pages a write to the federation feature's tables makes stale (docs/decisions/076, 078). */
export const FEDERATION_VIEWER_WRITES: ViewerWrites = {
  // Federation's keys, store and reply ids (docs/decisions/068).
  actor_keys: unshown,
  fedify_kv: unshown,
  remote_replies: unshown,
  // A remote comment author's shown name and picture.
  remote_actors: everyone,
  actor_handles: everyone,
  remote_followers: everyone,
  federation_blocks: everyone,
  // What readers follow elsewhere, those accounts' posts and the readers' replies to them are shown
  // on /following only, which no memo keeps (docs/decisions/081).
  remote_follows: unshown,
  remote_posts: unshown,
  remote_post_replies: unshown,
  // Likes and boosts from elsewhere move their post's revision (FEDERATION_FRESHNESS; docs/decisions/080).
  remote_reactions: followed,
};
