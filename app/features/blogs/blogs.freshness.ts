import { blog, blogOf, blogsCommentedBy, blogsOfWriter, followed, type FreshnessRule, ownRevision, ownRowsOf, ROWS, scope, unshown, updateOf, type ViewerWrites } from '~/db/freshness-kit';

/**
 * What the blogs feature's tables make stale (docs/decisions/055, 071): blogs, their comments,
 * comment likes and remote comment authors. Gathered with the other features' in app/db/freshness.ts.
 */

/** A blog's fields shown on lists as well as on its page (likes and comment counts are not: lists show them up to 30 s old). */
const LISTED_BLOG_COLUMNS = [
  'owner_id', 'title', 'category', 'type', 'short_description', 'long_description', 'details', 'availability', 'photo',
  'created_at', 'updated_at',
  'removed_at', 'removed_reason', // hidden by a moderator (decision 028)
  'held_until', 'pending_since', // the spam hold (decision 029)
  'photo_focus', 'photo_focus_x', 'photo_focus_y', // the photo's focus (decision 040)
  'tags_text', 'slug', // its tags and its address (decision 069)
];

const POST_END_COLUMNS = [
  'owner_id', 'title', 'category', 'short_description', 'long_description', 'availability', 'photo',
  'photo_focus', 'photo_focus_x', 'photo_focus_y', 'created_at', 'removed_at', 'pending_since', 'slug',
];

export const BLOGS_FRESHNESS: readonly FreshnessRule[] = [
  // A blog's page shows every listed field and its like and comment counts.
  { table: 'blogs', on: updateOf(...LISTED_BLOG_COLUMNS, 'likes', 'comments_count'), stale: [ownRevision] },
  { table: 'blogs', on: { insert: true, delete: true, ...updateOf(...LISTED_BLOG_COLUMNS) }, stale: [scope('lists')] },
  // A comment is on its blog's page (its count is on the blog row, which revises it again).
  { table: 'comments', on: ROWS, stale: [blog('blog_id')] },
  // A comment's like count and the reader's own like are on its blog's page (docs/decisions/060).
  { table: 'comment_likes', on: { insert: true, delete: true }, stale: [blogOf('comments', 'comment_id')] },
  // A remote author's shown handle, name and picture, on every blog they commented on.
  { table: 'remote_actors', on: updateOf('handle', 'name', 'avatar_url', 'profile_url'), stale: [blogsCommentedBy('id', 'remote_actor_id')] },
  // The end of a post shows its writer's other posts (docs/decisions/061): when one of her posts
  // comes, goes or changes what the end shows of it, her version moves, and with it every page of
  // hers (docs/decisions/093). Likes, comments and views show nowhere there.
  { table: 'blogs', on: { insert: true, delete: true, ...updateOf(...POST_END_COLUMNS) }, stale: [blogsOfWriter('owner_id')] },
];

/** Whose signed-in kept pages a write to the blogs feature's tables makes stale (docs/decisions/076, 078). */
export const BLOGS_VIEWER_WRITES: ViewerWrites = {
  blogs: followed,
  comments: followed,
  likes: followed,
  // Its inserts and deletes revise the comment's blog; it is never updated.
  comment_likes: followed,
  blog_views_daily: unshown,
  // SQLite's search index and its shadow tables (docs/decisions/012): written only by the blogs
  // table's own triggers, with the blog.
  blogs_fts: followed,
  blogs_fts_data: followed,
  blogs_fts_idx: followed,
  blogs_fts_docsize: followed,
  blogs_fts_config: followed,
  // A post's versions: its history page, which no memo keeps (docs/decisions/070).
  blog_revisions: unshown,
  // The writer's own drafts (docs/decisions/070).
  blog_drafts: ownRowsOf('owner_id'),
};
