/**
 * What makes a kept page stale, as data: which row changes move which version (docs/decisions/055,
 * refining 024; each feature states its own tables' rules in `<feature>.freshness.ts`, gathered
 * in ./freshness.ts, docs/decisions/071). `freshness.server.ts` turns these rules into
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
 *   shown name or photo is on those pages);
 * - `blogsOfWriter(column)`: on `blogs` itself, every blog of the writer in `column` (the end of a
 *   post shows her other posts, decision 061): it moves her one version in `writer_versions`,
 *   which her blogs' kept pages compare beside their revision, not each blog's revision, so a
 *   post's insert costs the same for a writer of 10 posts and of 10,000 (docs/decisions/093);
 * - `blogsCommentedBy(column, by)`: every blog whose comments name this row in `comments.<by>`.
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
/** The blogs of the writer a blogs row names (the end of a post shows her other posts): her version moves (docs/decisions/093). */
export const blogsOfWriter = (column: string): StaleTarget => ({ kind: 'blogs-of-writer', column });
/** The blogs whose comments name this row in `comments.<by>` (a remote author's shown name and picture). */
export const blogsCommentedBy = (column: string, by: string): StaleTarget => ({ kind: 'blogs-commented-by', column, by });
/** Any row added, changed or removed. */
export const ROWS: RowChanges = { insert: true, delete: true, update: true };
export const updateOf = (...columns: string[]): RowChanges => ({ update: columns });

/**
 * Whose signed-in kept pages a write to a table makes stale (the viewer memo,
 * server/http/middleware/viewer-memo.server.ts; docs/decisions/076, 078). Every table in the
 * schema is classified by the feature that owns it, in its `<feature>.freshness.ts`
 * (`ViewerWrites`), and ./viewer-writes.server.ts makes the SQLite change watch and the
 * PostgreSQL triggers from the gathered list:
 * - `followed`: every change moves a blog's revision or the lists version (the rules above),
 *   which the memo compares already;
 * - `unshown`: bookkeeping no kept page shows;
 * - `ownRowsOf(column)`: a row shown only on the pages of the person `column` names (their
 *   follow button, their wishlist marks, their bell): a change makes that person's kept pages
 *   stale;
 * - `everyone`: a change may show on anyone's kept page (a role, a standing, a profile): it makes
 *   every reader's kept pages stale. A table no feature classifies is treated so too, and
 *   viewer-writes.test.ts fails on it.
 */
export type ViewerWrite = { kind: 'followed' } | { kind: 'unshown' } | { kind: 'everyone' } | { kind: 'own'; column: string };

/** Table → its class, for the tables a feature owns. */
export type ViewerWrites = Readonly<Record<string, ViewerWrite>>;

export const followed: ViewerWrite = { kind: 'followed' };
export const unshown: ViewerWrite = { kind: 'unshown' };
export const everyone: ViewerWrite = { kind: 'everyone' };
export const ownRowsOf = (column: string): ViewerWrite => ({ kind: 'own', column });
