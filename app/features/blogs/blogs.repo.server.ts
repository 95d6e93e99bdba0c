import { type AliasedExpression, type Expression, type ExpressionBuilder, type Insertable, type Kysely, type SelectQueryBuilder, type SqlBool, sql, type Updateable } from 'kysely';
import type { Database, DialectName } from '~/db/schema';
import { blogShownToAll, shownName, shownPhoto } from '~/db/shared-sql.server';
import { keptForLists, keyOf } from '~/lib/render/caches.server';
import { type BlogRow, MARK_CLOSE, MARK_OPEN } from './blogs.presenter';

type Db = Kysely<Database>;

const BLOG_COLUMNS = [
  'blogs.id',
  'blogs.owner_id',
  shownName('blogs.owner_id').as('author_name'),
  'blogs.title',
  'blogs.category',
  'blogs.type',
  'blogs.short_description',
  'blogs.long_description',
  'blogs.details',
  'blogs.availability',
  'blogs.photo',
  'blogs.photo_focus',
  'blogs.photo_focus_x',
  'blogs.photo_focus_y',
  'blogs.likes',
  'blogs.views',
  'blogs.created_at',
  'blogs.removed_at',
  'blogs.removed_reason',
  'blogs.held_until',
  'blogs.pending_since',
  'blogs.mail_teaser',
  'blogs.tags_text',
  'blogs.slug',
  // The writer's choice to show her view counts (docs/decisions/069); null: no profile, shown.
  sql<number | null>`(select p.show_views from profiles p where p.user_id = blogs.owner_id)`.as('show_views'),
] as const;

export interface BlogFilter {
  /** The viewer, whose own Hidden blogs are included; null: Public blogs only. */
  viewerId: string | null;
  category?: string;
  /** Only blogs carrying this tag (its key, docs/decisions/069). */
  tag?: string;
  /**
   * Only blogs that may spread beyond the site (feeds, the sitemap, featured): none whose
   * author's spam hold is still on (docs/decisions/029).
   */
  indexable?: boolean;
}

type BlogsCondition = (eb: ExpressionBuilder<Database, 'blogs'>) => Expression<SqlBool>;

/**
 * Public, not removed by a moderator and not waiting for one: what everyone may see
 * (docs/decisions/028, 029).
 */
const isShownToAll: BlogsCondition = (eb) => blogShownToAll(eb);

/** Not held for spam: may be indexed, listed in feeds and featured, and mailed (decision 029). */
const isNotHeld: BlogsCondition = (eb) => eb('blogs.held_until', 'is', null);

/**
 * The visibility rule, once: every Public blog no moderator removed, plus a signed-in viewer's
 * own Hidden or removed ones (the owner still sees a removed blog, with the reason).
 */
function visibility(filter: BlogFilter): BlogsCondition[] {
  if (!filter.viewerId) return [isShownToAll];
  const viewerId = filter.viewerId;
  return [
    isShownToAll,
    (eb) =>
      eb.and([
        eb('blogs.owner_id', '=', viewerId),
        eb.or([eb('blogs.availability', '=', 'Hidden'), eb('blogs.removed_at', 'is not', null), eb('blogs.pending_since', 'is not', null)]),
      ]),
  ];
}

function blogsWhere(db: Db, filter: BlogFilter, condition: BlogsCondition) {
  let query = db.selectFrom('blogs').where(condition);
  if (filter.indexable) query = query.where(isNotHeld);
  if (filter.tag) {
    const tag = filter.tag;
    query = query.where('blogs.id', 'in', (eb) => eb.selectFrom('blog_tags').innerJoin('tags', 'tags.id', 'blog_tags.tag_id').select('blog_tags.blog_id').where('tags.key', '=', tag));
  }
  return filter.category ? query.where('blogs.category', '=', filter.category) : query;
}

/**
 * The rule as one index-served query per part. Two parts rather than one OR, which no index can
 * serve in date order: the OR sorts every public blog on each request.
 */
function visibleParts(db: Db, filter: BlogFilter) {
  return visibility(filter).map((condition) => blogsWhere(db, filter, condition));
}

/** The rule as one condition, for a search: the full-text match drives that query, not an order. */
function visible(db: Db, filter: BlogFilter) {
  const parts = visibility(filter);
  return blogsWhere(db, filter, (eb) => eb.or(parts.map((part) => part(eb))));
}

export async function findBlog(db: Db, id: string): Promise<BlogRow | undefined> {
  return db.selectFrom('blogs').select(BLOG_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Newest first. The parts are merged in index order (SQLite MERGE, PostgreSQL Merge Append). */
export async function listBlogs(db: Db, filter: BlogFilter, page: { limit: number; offset: number }): Promise<BlogRow[]> {
  const [publicPart, ownHidden] = visibleParts(db, filter).map((part) => part.select(BLOG_COLUMNS));
  const merged = ownHidden ? publicPart!.unionAll(ownHidden) : publicPart!;
  return merged.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}

/**
 * Public counts per category are kept while the lists version stands (the `blog_counts` cache);
 * a viewer's own Hidden blogs are few and counted each time through their index.
 */
export async function countBlogs(db: Db, filter: BlogFilter): Promise<number> {
  const [publicPart, ownHidden] = visibleParts(db, filter);
  const count = async (part: typeof publicPart) => Number((await part!.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const publicCount = await keptForLists('blog_counts', db, keyOf(!!filter.indexable, filter.category, filter.tag), () => count(publicPart));
  return publicCount + (ownHidden ? await count(ownHidden) : 0);
}

export type SearchRow = BlogRow & { snippet: string };

/**
 * A search ranks at most this many matches: the newest ones. A word in nearly every blog would
 * otherwise make each search score the whole table (seconds at 100,000 blogs); a rarer word is
 * ranked over all its matches (docs/decisions/012-full-text-search.md).
 */
export const SEARCH_MAX_RESULTS = 1000;

/** Words of context around the matches in a search excerpt. */
const SNIPPET_WORDS = 28;
const HEADLINE_OPTIONS = `StartSel=${MARK_OPEN}, StopSel=${MARK_CLOSE}, MinWords=${SNIPPET_WORDS / 2}, MaxWords=${SNIPPET_WORDS}, MaxFragments=2, FragmentDelimiter=" … "`;

/** Equal scores fall newest first, as the lists do; then the asked-for page of the cut candidates. */
function newestOnPage<DB, TB extends keyof DB, O>(qb: SelectQueryBuilder<DB, TB, O>, page: { limit: number; offset: number }): SelectQueryBuilder<DB, TB, O> {
  return qb.orderBy(sql.ref('c.top_created_at'), 'desc').orderBy(sql.ref('c.top_id'), 'desc').limit(page.limit).offset(page.offset);
}

/**
 * Full-text search (docs/decisions/012-full-text-search.md): of the blogs the filter lets the
 * viewer see whose title, short or long description contain every term, the newest
 * SEARCH_MAX_RESULTS, best match first (title counts most, then the short description), newest
 * first among equals; each with an excerpt of its long description, matches between MARK_OPEN
 * and MARK_CLOSE. `terms` are plain words (searchTerms), quoted here so no query syntax can form.
 * Only the page's rows get an excerpt: excerpts are the expensive part.
 */
export async function searchBlogs(
  db: Db,
  dialect: DialectName,
  filter: BlogFilter,
  terms: string[],
  page: { limit: number; offset: number },
): Promise<{ rows: SearchRow[]; total: number }> {
  if (dialect === 'postgres') {
    const query = sql`plainto_tsquery('english', ${terms.join(' ')})`;
    const candidates = visible(db, filter)
      .where(sql<boolean>`blogs.search_vector @@ ${query}`)
      .select(['blogs.id as top_id', 'blogs.created_at as top_created_at'])
      .orderBy('blogs.created_at', 'desc')
      .orderBy('blogs.id', 'desc')
      .limit(SEARCH_MAX_RESULTS);
    // Scored after the cut, so ts_rank reads at most SEARCH_MAX_RESULTS vectors.
    const top = db
      .selectFrom(candidates.as('c'))
      .innerJoin('blogs', 'blogs.id', 'c.top_id')
      .select(['c.top_id', 'c.top_created_at', sql<number>`ts_rank(blogs.search_vector, ${query})`.as('score'), sql<number>`count(*) over ()`.as('total')])
      .orderBy('score', 'desc')
      .$call((qb) => newestOnPage(qb, page));
    const rows = await db
      .selectFrom(top.as('top'))
      .innerJoin('blogs', 'blogs.id', 'top.top_id')
      .select([...BLOG_COLUMNS, 'top.total', sql<string>`ts_headline('english', blogs.long_description, ${query}, ${HEADLINE_OPTIONS})`.as('snippet')])
      .orderBy('top.score', 'desc')
      .orderBy('top.top_created_at', 'desc')
      .orderBy('top.top_id', 'desc')
      .execute();
    return withTotal(db, rows, candidates, page);
  }

  const match = terms.map((term) => `"${term}"`).join(' ');
  // FTS5 walks its matches newest rowid first, so the cut stops the walk early.
  const candidates = visible(db, filter)
    .innerJoin(sql`blogs_fts`.as('blogs_fts'), (join) => join.on(sql<boolean>`blogs_fts.rowid = blogs.rowid`))
    .where(sql<boolean>`blogs_fts match ${match}`)
    .select([sql<number>`blogs_fts.rowid`.as('top_rowid'), 'blogs.created_at as top_created_at', 'blogs.id as top_id', sql<number>`bm25(blogs_fts, 10.0, 4.0, 1.0)`.as('score')])
    .orderBy(sql`blogs_fts.rowid`, 'desc')
    .limit(SEARCH_MAX_RESULTS);
  const top = db
    .selectFrom(candidates.as('c'))
    .selectAll()
    .select(sql<number>`count(*) over ()`.as('total'))
    .orderBy('c.score')
    .$call((qb) => newestOnPage(qb, page));
  // CROSS JOIN keeps SQLite's join order: the page's rowids first, then one FTS row each.
  const rows = await db
    .selectFrom(top.as('top'))
    .crossJoin(sql`blogs_fts`.as('blogs_fts'))
    .crossJoin('blogs')
    .where(sql<boolean>`blogs_fts match ${match}`)
    .where(sql<boolean>`blogs_fts.rowid = top.top_rowid and blogs.rowid = top.top_rowid`)
    .select([...BLOG_COLUMNS, 'top.total', sql<string>`snippet(blogs_fts, 2, ${MARK_OPEN}, ${MARK_CLOSE}, '…', ${SNIPPET_WORDS})`.as('snippet')])
    .orderBy('top.score')
    .orderBy('top.top_created_at', 'desc')
    .orderBy('top.top_id', 'desc')
    .execute();
  return withTotal(db, rows, candidates, page);
}

/**
 * The page's rows carry the number of candidates (a window count, so one pass finds both); only
 * a page past the end has no row to carry it and costs a count of its own.
 */
async function withTotal(
  db: Db,
  rows: (SearchRow & { total: number })[],
  candidates: { as(alias: 'c'): AliasedExpression<unknown, 'c'> },
  page: { offset: number },
): Promise<{ rows: SearchRow[]; total: number }> {
  if (rows.length > 0) return { rows: rows.map(({ total: _, ...row }) => row), total: Number(rows[0]!.total) };
  if (page.offset === 0) return { rows: [], total: 0 };
  const row = await db
    .selectFrom(candidates.as('c'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows: [], total: Number(row.n) };
}

/** How many writers have at least one blog everyone may see. */
export async function countPublicWriters(db: Db): Promise<number> {
  const row = await db
    .selectFrom('blogs')
    .where(isShownToAll)
    .select((eb) => eb.fn.count<number>('blogs.owner_id').distinct().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Public blogs' ids and last edits, oldest first (so new blogs only ever extend the last page). */
export async function listPublicBlogRefs(db: Db, page: { limit: number; offset: number }) {
  return db
    .selectFrom('blogs')
    .select(['id', 'slug', 'updated_at'])
    .where(isShownToAll)
    .where(isNotHeld)
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function listPublicBlogs(db: Db, order: 'recent' | 'featured', limit: number): Promise<BlogRow[]> {
  let query = db.selectFrom('blogs').select(BLOG_COLUMNS).where(isShownToAll);
  // Featured spreads a blog further than a list does: a held author's blogs are not featured.
  if (order === 'featured') query = query.where(isNotHeld).orderBy('blogs.likes', 'desc').orderBy('blogs.views', 'desc');
  return query.orderBy('blogs.created_at', 'desc').orderBy('blogs.id', 'desc').limit(limit).execute();
}

/** One writer's blogs, newest first (blogs_owner_idx); their Hidden, removed and waiting ones only when asked. */
export async function listBlogsByOwner(db: Db, ownerId: string, withHidden: boolean, limit: number, indexable = false): Promise<BlogRow[]> {
  let query = db.selectFrom('blogs').select(BLOG_COLUMNS).where('owner_id', '=', ownerId);
  if (!withHidden) query = query.where(isShownToAll);
  if (indexable) query = query.where(isNotHeld);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** The newest posts everyone may see of the writers someone follows (their /following, docs/decisions/081). */
export async function listBlogsOfFollowedWriters(db: Db, followerId: string, limit: number): Promise<BlogRow[]> {
  return db
    .selectFrom('blogs')
    .select(BLOG_COLUMNS)
    .where('owner_id', 'in', db.selectFrom('follows').select('writer_id').where('follower_id', '=', followerId))
    .where(isShownToAll)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The photo a writer shows now (their profile's, else their account's): the blog page's byline. */
export async function findAuthorPhoto(db: Db, ownerId: string): Promise<string | null> {
  const row = await db.selectFrom('user').select(shownPhoto('user.id').as('photo')).where('user.id', '=', ownerId).executeTakeFirst();
  return row?.photo ?? null;
}

/**
 * What the end of a post shows of its writer's other posts, from what everyone may see: the one
 * written just before and the one just after (by date, then id), and the newest others.
 */
export async function findPostNeighbours(db: Db, post: { id: string; ownerId: string; createdAt: string }, newest: number) {
  const others = db.selectFrom('blogs').select(BLOG_COLUMNS).where('owner_id', '=', post.ownerId).where(isShownToAll).where('blogs.id', '!=', post.id);
  const [previous, next, latest] = await Promise.all([
    others
      .where((eb) => eb.or([eb('created_at', '<', post.createdAt), eb.and([eb('created_at', '=', post.createdAt), eb('blogs.id', '<', post.id)])]))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
    others
      .where((eb) => eb.or([eb('created_at', '>', post.createdAt), eb.and([eb('created_at', '=', post.createdAt), eb('blogs.id', '>', post.id)])]))
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .limit(1)
      .executeTakeFirst(),
    others.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(newest).execute(),
  ]);
  return { previous, next, latest };
}

export async function insertBlog(db: Db, row: Insertable<Database['blogs']>) {
  await db.insertInto('blogs').values(row).execute();
}

export async function updateBlog(db: Db, id: string, patch: Updateable<Database['blogs']>): Promise<number> {
  const result = await db.updateTable('blogs').set(patch).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteBlog(db: Db, id: string): Promise<number> {
  const result = await db.deleteFrom('blogs').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Adds buffered view counts, one statement for up to a few hundred blogs (the view counter's
 * flush). A view changes no version counter: pages show a count up to 30 s old (decision 024).
 */
/**
 * Adds counted views to the blogs' totals and to their day's row in blog_views_daily (the
 * writer's own numbers, docs/decisions/066): two statements per flush, whatever the number of
 * views. A blog deleted since its views were counted gets neither.
 */
export async function addViews(db: Db, day: string, counts: [id: string, views: number][]): Promise<number> {
  if (counts.length === 0) return 0;
  const perBlog = sql<number>`case id ${sql.join(
    counts.map(([id, n]) => sql`when ${id} then ${sql.lit(Math.trunc(n))}`),
    sql` `,
  )} else 0 end`;
  const ids = counts.map(([id]) => id);
  return db.transaction().execute(async (trx) => {
    const result = await trx.updateTable('blogs').set({ views: sql<number>`views + ${perBlog}` }).where('id', 'in', ids).executeTakeFirst();
    await sql`
      insert into blog_views_daily (blog_id, day, views)
      select id, ${day}, ${perBlog} from blogs where id in (${sql.join(ids)})
      on conflict (blog_id, day) do update set views = blog_views_daily.views + excluded.views`.execute(trx);
    return Number(result.numUpdatedRows);
  });
}

/** Inserts the like unless it exists (the primary key on blog_id, user_id decides); 1 or 0. */
export async function insertLike(db: Db, like: Database['likes']): Promise<number> {
  const result = await db
    .insertInto('likes')
    .values(like)
    .onConflict((oc) => oc.columns(['blog_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export async function deleteLike(db: Db, blogId: string, userId: string): Promise<number> {
  const result = await db.deleteFrom('likes').where('blog_id', '=', blogId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Sets the blogs' like and comment counts, and their comments' like counts, from their rows (after rows went without the counters moving). */
export async function recountLikesAndComments(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('comments')
    .set((eb) => ({ likes: eb.selectFrom('comment_likes').select((l) => l.fn.countAll<number>().as('n')).whereRef('comment_likes.comment_id', '=', 'comments.id') }))
    .where('blog_id', 'in', ids)
    .execute();
  await db
    .updateTable('blogs')
    .set((eb) => ({
      likes: eb.selectFrom('likes').select((l) => l.fn.countAll<number>().as('n')).whereRef('likes.blog_id', '=', 'blogs.id'),
      // A comment deleted under replies stays as "[deleted]" and leaves the count (docs/decisions/060).
      comments_count: eb.selectFrom('comments').select((c) => c.fn.countAll<number>().as('n')).whereRef('comments.blog_id', '=', 'blogs.id').where('comments.deleted_at', 'is', null),
    }))
    .where('id', 'in', ids)
    .execute();
}

/** Moves the blog's like count by `delta`; answers the new count. */
export async function addToLikes(db: Db, id: string, delta: 1 | -1): Promise<number> {
  const row = await db
    .updateTable('blogs')
    .set((eb) => ({ likes: eb('likes', '+', delta) }))
    .where('id', '=', id)
    .returning('likes')
    .executeTakeFirst();
  return row?.likes ?? 0;
}

/** The blog's like count alone (not the whole row, long description and all). */
export async function likesOf(db: Db, id: string): Promise<number> {
  const row = await db.selectFrom('blogs').select('likes').where('id', '=', id).executeTakeFirst();
  return row?.likes ?? 0;
}

/** Which of `blogIds` the user liked. */
export async function likedAmong(db: Db, userId: string, blogIds: string[]): Promise<Set<string>> {
  if (blogIds.length === 0) return new Set();
  const rows = await db.selectFrom('likes').select('blog_id').where('user_id', '=', userId).where('blog_id', 'in', blogIds).execute();
  return new Set(rows.map((r) => r.blog_id));
}

/** The blogs a user liked that the user may still see, newest like first. */
export async function listLikedBlogs(db: Db, userId: string, page: { limit: number; offset: number }) {
  return db
    .selectFrom('likes')
    .innerJoin('blogs', 'blogs.id', 'likes.blog_id')
    .select(['likes.blog_id', 'blogs.likes'])
    .where('likes.user_id', '=', userId)
    .where((eb) => eb.or([isShownToAll(eb), eb('blogs.owner_id', '=', userId)]))
    .orderBy('likes.created_at', 'desc')
    .orderBy('likes.blog_id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countLikedBlogs(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('likes')
    .innerJoin('blogs', 'blogs.id', 'likes.blog_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('likes.user_id', '=', userId)
    .where((eb) => eb.or([isShownToAll(eb), eb('blogs.owner_id', '=', userId)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
