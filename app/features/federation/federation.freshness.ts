import { everyone, unshown, type ViewerWrites } from '~/db/freshness-kit';

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
};
