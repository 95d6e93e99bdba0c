/**
 * What makes a kept page stale, as data: the one place that says which row changes move which
 * version (docs/decisions/055, refining 024). `freshness.server.ts` turns these rules into
 * triggers for SQLite and PostgreSQL and brings the database's triggers in line with them after
 * every migration run, so no migration writes a freshness trigger by hand.
 *
 * A rule reads: "when a row of `table` is inserted / deleted / updated (in `columns`), these
 * things are stale". Rules with the same table and target merge, so adding a column shown on a
 * blog page is adding it to a rule's list, and a new table whose rows show on a page is one rule:
 *
 *   { table: 'comment_likes', on: ROWS, stale: [blogOf('comments', 'comment_id')] },
 *
 * The targets:
 * - `scope('lists')`: every list, feed, sitemap and the home page (they follow the `lists` version);
 * - `scope('sessions')`: the per-instance session cache (a session or a shown identity changed);
 * - `ownRevision`: on `blogs` itself, the updated blog's page (its `revision`);
 * - `blog(column)`: the page of the blog whose id this row holds in `column`;
 * - `blogOf(table, column)`: the page of the blog of the `table` row whose id this row holds in
 *   `column` (a like of a comment revises the comment's blog);
 * - `blogsOfPerson(column)`: every blog written or commented on by the person in `column` (their
 *   shown name or photo is on those pages).
 * Only columns a reader sees belong here: `views` moves nothing (counts are kept up to 30 s, 024),
 * and `revision` itself must never be listed.
 */
export type VersionScope = 'lists' | 'sessions';

export type StaleTarget =
  | { kind: 'scope'; scope: VersionScope }
  | { kind: 'own-revision' }
  | { kind: 'blog'; column: string }
  | { kind: 'blog-of'; table: string; column: string }
  | { kind: 'blogs-of-person'; column: string }
  | { kind: 'blogs-of-writer'; column: string }
  | { kind: 'blogs-commented-by'; column: string; by: string };

/** Which row changes count: inserts, deletes, and updates of any column (`true`) or of these. */
export interface RowChanges {
  insert?: boolean;
  delete?: boolean;
  update?: true | readonly string[];
}

export interface FreshnessRule {
  table: string;
  on: RowChanges;
  stale: readonly StaleTarget[];
}

export const scope = (name: VersionScope): StaleTarget => ({ kind: 'scope', scope: name });
export const ownRevision: StaleTarget = { kind: 'own-revision' };
export const blog = (column: string): StaleTarget => ({ kind: 'blog', column });
export const blogOf = (table: string, column: string): StaleTarget => ({ kind: 'blog-of', table, column });
export const blogsOfPerson = (column: string): StaleTarget => ({ kind: 'blogs-of-person', column });
/** The other blogs of the writer a blogs row names (the end of a post shows her other posts). */
export const blogsOfWriter = (column: string): StaleTarget => ({ kind: 'blogs-of-writer', column });
/** The blogs whose comments name this row in `comments.<by>` (a remote author's shown name and picture). */
export const blogsCommentedBy = (column: string, by: string): StaleTarget => ({ kind: 'blogs-commented-by', column, by });
/** Any row added, changed or removed. */
export const ROWS: RowChanges = { insert: true, delete: true, update: true };
export const updateOf = (...columns: string[]): RowChanges => ({ update: columns });

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

export const FRESHNESS: readonly FreshnessRule[] = [
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
  // comes, goes or changes what the end shows of it, her other blogs' pages are stale too. Likes,
  // comments and views show nowhere there.
  { table: 'blogs', on: { insert: true, delete: true, ...updateOf(...POST_END_COLUMNS) }, stale: [blogsOfWriter('owner_id')] },
  // A person's shown name and photo: on their blogs, the blogs they commented on, lists and the session cache.
  { table: 'user', on: updateOf('name', 'image'), stale: [blogsOfPerson('id'), scope('lists')] },
  { table: 'profiles', on: { insert: true, ...updateOf('name', 'photo') }, stale: [blogsOfPerson('user_id'), scope('lists'), scope('sessions')] },
  // A writer's choice to show her view counts or not (decision 069): on her blogs' pages (and, more
  // than needed, those she commented on).
  { table: 'profiles', on: updateOf('show_views'), stale: [blogsOfPerson('user_id')] },
  // The session cache (decision 019): a session ended or changed, or an account's details changed.
  { table: 'session', on: { delete: true, update: true }, stale: [scope('sessions')] },
  { table: 'user', on: { delete: true, ...updateOf('name', 'email', 'image') }, stale: [scope('sessions')] },
];
