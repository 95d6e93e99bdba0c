import { type Kysely, sql } from 'kysely';
import type { Database, ExportScope } from '~/db/schema';
import { shownName } from '~/db/shared-sql.server';

type Db = Kysely<Database>;

const EXPORT_COLUMNS = ['id', 'user_id', 'scope', 'status', 'size_bytes', 'error', 'created_at', 'finished_at', 'expires_at', 'mailed_at'] as const;

export async function insertExport(db: Db, row: { id: string; user_id: string; scope: ExportScope; created_at: string; expires_at: string }): Promise<void> {
  await db.insertInto('exports').values(row).execute();
}

export function findExport(db: Db, id: string) {
  return db.selectFrom('exports').select(EXPORT_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export function listExportsOf(db: Db, userId: string, limit: number) {
  return db.selectFrom('exports').select(EXPORT_COLUMNS).where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** Her exports still being made. */
export async function countPending(db: Db, userId: string, scope: ExportScope): Promise<number> {
  const row = await db.selectFrom('exports').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('scope', '=', scope).where('status', '=', 'pending').executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function markReady(db: Db, id: string, q: { size: number; finishedAt: string; expiresAt: string }): Promise<boolean> {
  const result = await db.updateTable('exports').set({ status: 'ready', size_bytes: q.size, finished_at: q.finishedAt, expires_at: q.expiresAt, error: null }).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function markFailed(db: Db, id: string, q: { error: string; finishedAt: string }): Promise<void> {
  await db.updateTable('exports').set({ status: 'failed', error: q.error, finished_at: q.finishedAt }).where('id', '=', id).execute();
}

export async function markMailed(db: Db, id: string, at: string): Promise<void> {
  await db.updateTable('exports').set({ mailed_at: at }).where('id', '=', id).execute();
}

/** Deletes the rows whose time is up and answers their ids (their files go next). */
export async function deleteExpired(db: Db, now: string): Promise<string[]> {
  const rows = await db.deleteFrom('exports').where('expires_at', '<=', now).returning('id').execute();
  return rows.map((r) => r.id);
}

export async function deleteExportsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.deleteFrom('exports').where('user_id', '=', userId).returning('id').execute();
  return rows.map((r) => r.id);
}

export async function existingIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('exports').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

export function findAccount(db: Db, userId: string) {
  return db
    .selectFrom('user')
    .leftJoin('profiles', 'profiles.user_id', 'user.id')
    .select(['user.id', 'user.email', sql<string>`coalesce(profiles.name, "user".name)`.as('name'), sql<string | null>`coalesce(profiles.photo, "user".image)`.as('photo'), 'profiles.bio', 'profiles.website', 'profiles.links', 'profiles.updated_at'])
    .where('user.id', '=', userId)
    .executeTakeFirst();
}

export function findUserIdByEmail(db: Db, email: string) {
  return db.selectFrom('user').select('id').where(sql`lower(email)`, '=', email.toLowerCase()).executeTakeFirst();
}

const POST_COLUMNS = ['id', 'owner_id', 'title', 'category', 'type', 'short_description', 'long_description', 'details', 'availability', 'photo', 'created_at', 'updated_at'] as const;

/** A page of posts by id: one writer's, or the whole site's (`ownerId` null). */
export function postsPage(db: Db, q: { ownerId: string | null; afterId: string | null; limit: number }) {
  let query = db.selectFrom('blogs').select(POST_COLUMNS).orderBy('id').limit(q.limit);
  if (q.ownerId) query = query.where('owner_id', '=', q.ownerId);
  if (q.afterId) query = query.where('id', '>', q.afterId);
  return query.execute();
}
export type ExportPost = Awaited<ReturnType<typeof postsPage>>[number];

/**
 * A page of comments by id: every comment (site), or a writer's (those under her posts and those
 * she wrote elsewhere). A remote author is named by their name or handle.
 */
export function commentsPage(db: Db, q: { userId: string | null; afterId: string | null; limit: number }) {
  let query = db
    .selectFrom('comments')
    .leftJoin('remote_actors as ra', 'ra.id', 'comments.remote_actor_id')
    .select([
      'comments.id',
      'comments.blog_id',
      'comments.parent_id',
      'comments.user_id',
      sql<string | null>`coalesce(${shownName('comments.user_id')}, ra.name, ra.handle)`.as('author_name'),
      'ra.profile_url as remote_url',
      'comments.comment_text',
      'comments.commented_at',
      'comments.edited_at',
      'comments.deleted_at',
      'comments.hidden_at',
      'comments.removed_at',
    ])
    .orderBy('comments.id')
    .limit(q.limit);
  if (q.userId) {
    const userId = q.userId;
    query = query.where((eb) => eb.or([eb('comments.user_id', '=', userId), eb('comments.blog_id', 'in', eb.selectFrom('blogs').select('blogs.id').where('blogs.owner_id', '=', userId))]));
  }
  if (q.afterId) query = query.where('comments.id', '>', q.afterId);
  return query.execute();
}

/** Every author of the site, or one writer. */
export function authors(db: Db, userId: string | null) {
  let query = db
    .selectFrom('user')
    .leftJoin('profiles', 'profiles.user_id', 'user.id')
    .select(['user.id', 'user.email', sql<string>`coalesce(profiles.name, "user".name)`.as('name'), sql<string | null>`coalesce(profiles.photo, "user".image)`.as('photo'), 'profiles.bio', 'profiles.website', 'profiles.links'])
    .orderBy('user.id');
  if (userId) query = query.where('user.id', '=', userId);
  return query.execute();
}

export function likesOf(db: Db, userId: string) {
  return db.selectFrom('likes').leftJoin('blogs', 'blogs.id', 'likes.blog_id').select(['likes.blog_id', 'blogs.title', 'likes.created_at']).where('likes.user_id', '=', userId).orderBy('likes.created_at').execute();
}

export function wishlistOf(db: Db, userId: string) {
  return db.selectFrom('wishlist').select(['id', 'blog_id', 'title', 'category', 'description', 'created_at']).where('user_id', '=', userId).orderBy('created_at').execute();
}

/** The accounts on other servers the writer follows from here (docs/decisions/081, 089): enough to ask again elsewhere. */
export function remoteFollowsOf(db: Db, userId: string) {
  return db
    .selectFrom('remote_follows as f')
    .innerJoin('remote_actors as a', 'a.id', 'f.remote_actor_id')
    .select(['a.handle', 'a.uri as actor_uri', 'f.created_at as since'])
    .where('f.follower_id', '=', userId)
    .orderBy('f.created_at')
    .orderBy('f.id')
    .execute();
}

export function followsOf(db: Db, userId: string) {
  return db
    .selectFrom('follows')
    .select(['follows.writer_id', shownName('follows.writer_id').as('writer_name'), 'follows.delivery', 'follows.created_at'])
    .where('follows.follower_id', '=', userId)
    .orderBy('follows.created_at')
    .execute();
}
