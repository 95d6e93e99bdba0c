import { type Insertable, type Kysely, sql } from 'kysely';
import type { Database } from '~/db/schema';
import { shownName, shownPhoto, shownToEveryone } from '~/db/shared-sql.server';
import type { CommentRow } from './blogs.presenter';

type Db = Kysely<Database>;

/**
 * A comment as the pages show it: a local author through their id (current name and photo), a
 * remote one through remote_actors (kept fresh by federation), never a copy.
 */
function selectComments(db: Db) {
  return db
    .selectFrom('comments')
    .leftJoin('remote_actors as ra', 'ra.id', 'comments.remote_actor_id')
    .select([
      'comments.id',
      'comments.user_id',
      sql<string | null>`coalesce(${shownName('comments.user_id')}, ra.name, ra.handle)`.as('user_name'),
      sql<string | null>`coalesce(${shownPhoto('comments.user_id')}, ra.avatar_url)`.as('user_photo'),
      'ra.handle as remote_handle',
      'ra.profile_url as remote_profile_url',
      'comments.parent_id',
      'comments.root_id',
      'comments.depth',
      'comments.likes',
      'comments.pinned_at',
      'comments.hidden_at',
      'comments.deleted_at',
      'comments.comment_text',
      'comments.commented_at',
      'comments.removed_at',
      'comments.removed_reason',
      'comments.edited_at',
      'comments.pending_since',
    ]);
}

/** A comment's place in its thread, and whose it is. */
export interface ThreadPlace {
  id: string;
  user_id: string | null;
  parent_id: string | null;
  root_id: string;
  depth: number;
}

/** Every comment of the threads where `userId` commented, on blogs that are not theirs (those go whole with the account). */
export async function threadsCommentedIn(db: Db, userId: string): Promise<ThreadPlace[]> {
  const roots = db
    .selectFrom('comments')
    .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
    .select('comments.root_id')
    .where('comments.user_id', '=', userId)
    .where('blogs.owner_id', '<>', userId);
  return db.selectFrom('comments').select(['id', 'user_id', 'parent_id', 'root_id', 'depth']).where('root_id', 'in', roots).execute();
}

/** A person's comments every reader sees, under other writers' posts (what went out to the fediverse, if the post did). */
export async function shownCommentsBy(db: Db, userId: string): Promise<{ id: string; blog_id: string; parent_id: string | null }[]> {
  return db
    .selectFrom('comments')
    .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
    .select(['comments.id', 'comments.blog_id', 'comments.parent_id'])
    .where('comments.user_id', '=', userId)
    .where('blogs.owner_id', '<>', userId)
    .where(shownToEveryone)
    .execute();
}

/** Moves a comment to another place in its thread (only ever up: a parent that stays, a smaller depth). */
export async function moveComment(db: Db, id: string, place: Pick<ThreadPlace, 'parent_id' | 'root_id' | 'depth'>): Promise<void> {
  await db.updateTable('comments').set(place).where('id', '=', id).execute();
}

export async function insertComment(db: Db, comment: Insertable<Database['comments']>): Promise<void> {
  await db.insertInto('comments').values(comment).execute();
  await db
    .updateTable('blogs')
    .set((eb) => ({ comments_count: eb('comments_count', '+', 1) }))
    .where('id', '=', comment.blog_id)
    .execute();
}

/**
 * The pinned comment and the newest `limit` other top-level comments, each followed by at most
 * `repliesLimit` replies of their threads, oldest first. Top-level comments nobody but their
 * author (or, hidden, the blog's writer) may see are left out here, so they take no place in the
 * limit; the thread rules (comment-threads.ts) decide the rest.
 */
export async function listBlogComments(db: Db, blogId: string, limit: number, repliesLimit: number, viewer: { id: string; isWriter: boolean } | null): Promise<CommentRow[]> {
  const topLevel = () =>
    selectComments(db)
      .where('comments.blog_id', '=', blogId)
      .where('comments.parent_id', 'is', null)
      .where((eb) => {
        const shown = eb.and([eb('comments.removed_at', 'is', null), eb('comments.pending_since', 'is', null), eb('comments.hidden_at', 'is', null)]);
        if (!viewer) return shown;
        const own = eb('comments.user_id', '=', viewer.id);
        return viewer.isWriter ? eb.or([own, eb.and([eb('comments.removed_at', 'is', null), eb('comments.pending_since', 'is', null)])]) : eb.or([shown, own]);
      });
  // Two index-served reads (comments_one_pinned, comments_blog_idx) rather than one sorted by "pinned first".
  const [pinned, newest] = await Promise.all([
    topLevel().where('comments.pinned_at', 'is not', null).execute(),
    topLevel().where('comments.pinned_at', 'is', null).orderBy('comments.commented_at', 'desc').orderBy('comments.id', 'desc').limit(limit).execute(),
  ]);
  const tops = [...pinned, ...newest.reverse()];
  if (tops.length === 0) return [];
  const replies = await selectComments(db)
    .where('comments.blog_id', '=', blogId)
    .where('comments.parent_id', 'is not', null)
    .where(
      'comments.root_id',
      'in',
      tops.map((c) => c.id),
    )
    .orderBy('comments.commented_at')
    .orderBy('comments.id')
    .limit(repliesLimit)
    .execute();
  return [...tops, ...replies];
}

/** One thread, its top-level comment first, then every reply oldest first (comments_root_idx). */
export async function listThread(db: Db, rootId: string, limit: number): Promise<CommentRow[]> {
  return selectComments(db).where('comments.root_id', '=', rootId).orderBy(sql`comments.parent_id is not null`).orderBy('comments.commented_at').orderBy('comments.id').limit(limit).execute();
}

/** A comment with the owner of the blog it is on: who may change, pin, hide or delete it. */
export async function findCommentWithBlogOwner(db: Db, id: string) {
  return db
    .selectFrom('comments')
    .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
    .select([
      'comments.id',
      'comments.blog_id',
      'comments.user_id',
      'comments.parent_id',
      'comments.root_id',
      'comments.depth',
      'comments.removed_at',
      'comments.pending_since',
      'comments.hidden_at',
      'comments.deleted_at',
      'blogs.owner_id as blog_owner_id',
    ])
    .where('comments.id', '=', id)
    .executeTakeFirst();
}

export type CommentWithBlogOwner = NonNullable<Awaited<ReturnType<typeof findCommentWithBlogOwner>>>;

export async function updateCommentText(db: Db, id: string, text: string, at: string, pendingSince?: string): Promise<number> {
  const result = await db
    .updateTable('comments')
    .set({ comment_text: text, edited_at: at, ...(pendingSince ? { pending_since: pendingSince } : {}) })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The comment and its share of its blog's count, together (call inside a transaction). */
export { deleteComment } from '~/db/shared-sql.server';

/** Inserts the like unless it exists (the primary key decides); 1 or 0. */
export async function insertCommentLike(db: Db, like: Database['comment_likes']): Promise<number> {
  const result = await db
    .insertInto('comment_likes')
    .values(like)
    .onConflict((oc) => oc.columns(['comment_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export async function deleteCommentLike(db: Db, commentId: string, userId: string): Promise<number> {
  const result = await db.deleteFrom('comment_likes').where('comment_id', '=', commentId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Moves the comment's like count by `delta` (0: reads it); answers the count. */
export async function addToCommentLikes(db: Db, id: string, delta: 1 | -1 | 0): Promise<number> {
  if (delta === 0) return (await db.selectFrom('comments').select('likes').where('id', '=', id).executeTakeFirst())?.likes ?? 0;
  const row = await db
    .updateTable('comments')
    .set((eb) => ({ likes: eb('likes', '+', delta) }))
    .where('id', '=', id)
    .returning('likes')
    .executeTakeFirst();
  return row?.likes ?? 0;
}

/** Which of `commentIds` the user liked. */
export async function commentsLikedAmong(db: Db, userId: string, commentIds: string[]): Promise<Set<string>> {
  if (commentIds.length === 0) return new Set();
  const rows = await db.selectFrom('comment_likes').select('comment_id').where('user_id', '=', userId).where('comment_id', 'in', commentIds).execute();
  return new Set(rows.map((r) => r.comment_id));
}

/** Pins `id` on its blog, unpinning any other first (one pinned per blog, a unique index); null unpins. */
export async function setPinned(db: Db, blogId: string, id: string, pinnedAt: string | null): Promise<number> {
  if (pinnedAt === null) {
    const result = await db.updateTable('comments').set({ pinned_at: null }).where('id', '=', id).where('pinned_at', 'is not', null).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
  await db.updateTable('comments').set({ pinned_at: null }).where('blog_id', '=', blogId).where('pinned_at', 'is not', null).where('id', '!=', id).execute();
  const result = await db.updateTable('comments').set({ pinned_at: pinnedAt }).where('id', '=', id).where('pinned_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Hides (by `by`, at `at`) or shows again; a hidden comment is no longer pinned. */
export async function setHidden(db: Db, id: string, hidden: { at: string; by: string } | null): Promise<number> {
  const result = hidden
    ? await db.updateTable('comments').set({ hidden_at: hidden.at, hidden_by: hidden.by, pinned_at: null }).where('id', '=', id).where('hidden_at', 'is', null).executeTakeFirst()
    : await db.updateTable('comments').set({ hidden_at: null, hidden_by: null }).where('id', '=', id).where('hidden_at', 'is not', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}
