import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database } from '~/db/schema';

type Db = Kysely<Database>;
export type DraftRow = Database['blog_drafts'];
export type RevisionRow = Database['blog_revisions'];

export async function findDraft(db: Db, id: string): Promise<DraftRow | undefined> {
  return db.selectFrom('blog_drafts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findDraftOfBlog(db: Db, blogId: string): Promise<DraftRow | undefined> {
  return db.selectFrom('blog_drafts').selectAll().where('blog_id', '=', blogId).executeTakeFirst();
}

/** The writer's newest draft of a new post that is not waiting for its time. */
export async function findLatestNewDraft(db: Db, ownerId: string): Promise<DraftRow | undefined> {
  return db
    .selectFrom('blog_drafts')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('blog_id', 'is', null)
    .where('publish_at', 'is', null)
    .orderBy('updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function listDrafts(db: Db, ownerId: string, limit: number): Promise<DraftRow[]> {
  return db.selectFrom('blog_drafts').selectAll().where('owner_id', '=', ownerId).orderBy('updated_at', 'desc').limit(limit).execute();
}

export async function insertDraft(db: Db, row: Insertable<DraftRow>): Promise<void> {
  await db.insertInto('blog_drafts').values(row).execute();
}

export async function updateDraft(db: Db, id: string, patch: Updateable<DraftRow>): Promise<number> {
  const result = await db.updateTable('blog_drafts').set(patch).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteDraft(db: Db, id: string): Promise<number> {
  const result = await db.deleteFrom('blog_drafts').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteDraftOfBlog(db: Db, blogId: string): Promise<void> {
  await db.deleteFrom('blog_drafts').where('blog_id', '=', blogId).execute();
}

export async function findAccount(db: Db, id: string) {
  return db.selectFrom('user').select(['id', 'email', 'name', 'image']).where('id', '=', id).executeTakeFirst();
}

export async function insertRevision(db: Db, row: Insertable<RevisionRow>): Promise<void> {
  await db.insertInto('blog_revisions').values(row).execute();
}

/** Drops a post's versions beyond its newest `keep`. */
export async function pruneRevisions(db: Db, blogId: string, keep: number): Promise<void> {
  const kept = db.selectFrom('blog_revisions').select('id').where('blog_id', '=', blogId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(keep);
  await db.deleteFrom('blog_revisions').where('blog_id', '=', blogId).where('id', 'not in', kept).execute();
}

export async function countRevisions(db: Db, blogId: string): Promise<number> {
  const row = await db.selectFrom('blog_revisions').select((eb) => eb.fn.countAll<number>().as('n')).where('blog_id', '=', blogId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Newest first; the id breaks a tie of two saves in one millisecond. */
export async function listRevisions(db: Db, blogId: string, limit: number): Promise<RevisionRow[]> {
  return db.selectFrom('blog_revisions').selectAll().where('blog_id', '=', blogId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function findRevision(db: Db, blogId: string, id: string): Promise<RevisionRow | undefined> {
  return db.selectFrom('blog_revisions').selectAll().where('blog_id', '=', blogId).where('id', '=', id).executeTakeFirst();
}
