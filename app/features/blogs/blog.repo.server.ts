import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database } from '~/db/schema';
import type { BlogRow, CommentRow } from './blog.presenter';

type Db = Kysely<Database>;

const BLOG_COLUMNS = [
  'blogs.id',
  'blogs.owner_id',
  'blogs.email',
  'blogs.name',
  'blogs.title',
  'blogs.category',
  'blogs.type',
  'blogs.short_description',
  'blogs.long_description',
  'blogs.details',
  'blogs.availability',
  'blogs.photo',
  'blogs.likes',
  'blogs.views',
  'blogs.created_at',
] as const;

export interface BlogFilter {
  /** The viewer, whose own Hidden blogs are included; null: Public blogs only. */
  viewerId: string | null;
  category?: string;
}

function visible(db: Db, filter: BlogFilter) {
  let query = db.selectFrom('blogs');
  query = filter.viewerId
    ? query.where((eb) => eb.or([eb('blogs.availability', '=', 'Public'), eb('blogs.owner_id', '=', filter.viewerId!)]))
    : query.where('blogs.availability', '=', 'Public');
  if (filter.category) query = query.where('blogs.category', '=', filter.category);
  return query;
}

export async function findBlog(db: Db, id: string): Promise<BlogRow | undefined> {
  return db.selectFrom('blogs').select(BLOG_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function listBlogs(db: Db, filter: BlogFilter, page: { limit: number; offset: number }): Promise<BlogRow[]> {
  return visible(db, filter)
    .select(BLOG_COLUMNS)
    .orderBy('blogs.created_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countBlogs(db: Db, filter: BlogFilter): Promise<number> {
  const row = await visible(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listPublicBlogs(db: Db, order: 'recent' | 'featured', limit: number): Promise<BlogRow[]> {
  let query = db.selectFrom('blogs').select(BLOG_COLUMNS).where('blogs.availability', '=', 'Public');
  if (order === 'featured') query = query.orderBy('blogs.likes', 'desc').orderBy('blogs.views', 'desc');
  return query.orderBy('blogs.created_at', 'desc').orderBy('blogs.id', 'desc').limit(limit).execute();
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

export async function incrementViews(db: Db, id: string): Promise<number> {
  const result = await db
    .updateTable('blogs')
    .set((eb) => ({ views: eb('views', '+', 1) }))
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
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

export async function addToLikes(db: Db, id: string, delta: 1 | -1): Promise<void> {
  await db
    .updateTable('blogs')
    .set((eb) => ({ likes: eb('likes', '+', delta) }))
    .where('id', '=', id)
    .execute();
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
    .where((eb) => eb.or([eb('blogs.availability', '=', 'Public'), eb('blogs.owner_id', '=', userId)]))
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
    .where((eb) => eb.or([eb('blogs.availability', '=', 'Public'), eb('blogs.owner_id', '=', userId)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertComment(db: Db, comment: Database['comments']): Promise<void> {
  await db.insertInto('comments').values(comment).execute();
  await db
    .updateTable('blogs')
    .set((eb) => ({ comments_count: eb('comments_count', '+', 1) }))
    .where('id', '=', comment.blog_id)
    .execute();
}

/** The newest `limit` comments, returned oldest first (reading order). */
export async function listComments(db: Db, blogId: string, limit: number): Promise<CommentRow[]> {
  const rows = await db
    .selectFrom('comments')
    .select(['user_name', 'user_photo', 'user_email', 'comment_text', 'commented_at', 'id'])
    .where('blog_id', '=', blogId)
    .orderBy('commented_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}
