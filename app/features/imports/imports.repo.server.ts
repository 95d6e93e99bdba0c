import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, ImportItemsTable, ImportRunStatus } from '~/db/schema';

type Db = Kysely<Database>;

/** What a source item became, or undefined when it was never imported. */
export async function findImportItem(db: Db, source: string, kind: ImportItemsTable['kind'], sourceId: string): Promise<string | undefined> {
  const row = await db.selectFrom('import_items').select('target_id').where('source', '=', source).where('kind', '=', kind).where('source_id', '=', sourceId).executeTakeFirst();
  return row?.target_id;
}

/** Records an item; false when it was recorded already. */
export async function insertImportItem(db: Db, row: Insertable<Database['import_items']>): Promise<boolean> {
  const result = await db.insertInto('import_items').values(row).onConflict((oc) => oc.columns(['source', 'kind', 'source_id']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Forgets what an item became (an image removed again because its post could not be written). */
export async function deleteImportItemsByTarget(db: Db, kind: ImportItemsTable['kind'], targetId: string): Promise<void> {
  await db.deleteFrom('import_items').where('kind', '=', kind).where('target_id', '=', targetId).execute();
}

/** An imported post with its old paths and comments, in the caller's transaction. */
export async function insertImportedBlog(db: Db, row: Insertable<Database['blogs']>): Promise<void> {
  await db.insertInto('blogs').values(row).execute();
}

/** Claims an old path for a post; false when another post answers it already. */
export async function insertLegacyPath(db: Db, row: Insertable<Database['legacy_paths']>): Promise<boolean> {
  const result = await db.insertInto('legacy_paths').values(row).onConflict((oc) => oc.column('path').doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The post an old path leads to, while it is there and not removed. */
/** The old paths that answer with each of these posts. */
export async function legacyPathsOf(db: Db, blogIds: string[]): Promise<{ blog_id: string; path: string }[]> {
  if (blogIds.length === 0) return [];
  return db.selectFrom('legacy_paths').select(['blog_id', 'path']).where('blog_id', 'in', blogIds).orderBy('path').execute();
}

export async function findLegacyTarget(db: Db, path: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('legacy_paths')
    .innerJoin('blogs', 'blogs.id', 'legacy_paths.blog_id')
    .select('legacy_paths.blog_id')
    .where('legacy_paths.path', '=', path)
    .where('blogs.removed_at', 'is', null)
    .executeTakeFirst();
  return row?.blog_id;
}

/** The name-only author of imported comments (a remote actor by a stable `import:` URI), made once. */
export async function ensureImportedAuthor(db: Db, actor: { id: string; uri: string; name: string; profileUrl: string | null; now: string }): Promise<string> {
  await db
    .insertInto('remote_actors')
    .values({ id: actor.id, uri: actor.uri, handle: actor.name, name: actor.name, avatar_url: null, profile_url: actor.profileUrl, created_at: actor.now, updated_at: actor.now })
    .onConflict((oc) => oc.column('uri').doNothing())
    .execute();
  const row = await db.selectFrom('remote_actors').select('id').where('uri', '=', actor.uri).executeTakeFirstOrThrow();
  return row.id;
}

export async function insertImportedComment(db: Db, row: Insertable<Database['comments']>): Promise<void> {
  await db.insertInto('comments').values(row).execute();
}

export async function setCommentsCount(db: Db, blogId: string, count: number): Promise<void> {
  await db.updateTable('blogs').set({ comments_count: count }).where('id', '=', blogId).execute();
}

export async function insertRun(db: Db, row: Insertable<Database['import_runs']>): Promise<void> {
  await db.insertInto('import_runs').values(row).execute();
}

export async function updateRun(db: Db, id: string, patch: Updateable<Database['import_runs']>): Promise<void> {
  await db.updateTable('import_runs').set(patch).where('id', '=', id).execute();
}

/** Changes a run only while it stands where the caller saw it (a confirmation and the sweep may meet); false when it moved on. */
export async function updateRunIf(db: Db, id: string, status: ImportRunStatus, patch: Updateable<Database['import_runs']>): Promise<boolean> {
  const result = await db.updateTable('import_runs').set(patch).where('id', '=', id).where('status', '=', status).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Runs not ended that have not moved since `before`: left in review, or their job gone (docs/decisions/095). */
export async function staleRuns(db: Db, before: string, limit: number) {
  return db
    .selectFrom('import_runs')
    .select(['id', 'status', 'file_path', 'options', 'report', 'updated_at'])
    .where('status', 'in', ['scanning', 'review', 'queued', 'running'])
    .where('updated_at', '<', before)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}

/** Of these archive paths, the ones a run still names. */
export async function runFiles(db: Db, paths: string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const rows = await db.selectFrom('import_runs').select('file_path').where('file_path', 'in', paths).execute();
  return new Set(rows.map((r) => r.file_path));
}

export async function findRun(db: Db, id: string) {
  return db.selectFrom('import_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listRuns(db: Db, ownerId: string, limit: number) {
  return db.selectFrom('import_runs').selectAll().where('owner_id', '=', ownerId).orderBy('created_at', 'desc').limit(limit).execute();
}

/** An account by its email (stored in lower case), for a site import's author mapping. */
export async function findAccountByEmail(db: Db, email: string) {
  return db.selectFrom('user').select(['id', 'name', 'email']).where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

export async function findAccountById(db: Db, id: string) {
  return db.selectFrom('user').select(['id', 'name', 'email']).where('id', '=', id).executeTakeFirst();
}

/** Whether the account can sign in at all (a password or a provider): one a site import made has neither until claimed. */
export async function hasSignInMethod(db: Db, userId: string): Promise<boolean> {
  return (await db.selectFrom('account').select('id').where('userId', '=', userId).executeTakeFirst()) !== undefined;
}

/** The account a source author became in an earlier site import, while it exists. */
export async function findImportAuthor(db: Db, source: string, sourceId: string) {
  return db
    .selectFrom('import_authors')
    .innerJoin('user', 'user.id', 'import_authors.user_id')
    .select(['user.id', 'user.name', 'user.email', 'import_authors.made', 'import_authors.run_id'])
    .where('import_authors.source', '=', source)
    .where('import_authors.source_id', '=', sourceId)
    .executeTakeFirst();
}

/** Records what a source author became; false when she was mapped already. */
export async function insertImportAuthor(db: Db, row: Insertable<Database['import_authors']>): Promise<boolean> {
  const result = await db.insertInto('import_authors').values(row).onConflict((oc) => oc.columns(['source', 'source_id']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Stages a run's items (docs/decisions/091). Run again (a scan retried, or run twice on two
 * instances), a position keeps the last body written: both scans read the same archive.
 */
export async function stageItems(db: Db, rows: Insertable<Database['import_staging']>[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('import_staging')
    .values(rows)
    .onConflict((oc) => oc.columns(['run_id', 'position']).doUpdateSet((eb) => ({ kind: eb.ref('excluded.kind'), body: eb.ref('excluded.body') })))
    .execute();
}

/** A run's staged items from `from` on, in order, at most `limit`. */
export async function stagedItems(db: Db, runId: string, from: number, limit: number) {
  return db.selectFrom('import_staging').select(['position', 'kind', 'body']).where('run_id', '=', runId).where('position', '>=', from).orderBy('position').limit(limit).execute();
}

/** A run's staged items at these positions, in order. */
export async function stagedAt(db: Db, runId: string, positions: number[]) {
  if (positions.length === 0) return [];
  return db.selectFrom('import_staging').select(['position', 'body']).where('run_id', '=', runId).where('position', 'in', positions).orderBy('position').execute();
}

/** Writes a staged item's body again (a post the reader resolved once its file was read: docs/decisions/095). */
export async function restage(db: Db, runId: string, position: number, body: string): Promise<void> {
  await db.updateTable('import_staging').set({ body }).where('run_id', '=', runId).where('position', '=', position).execute();
}

/** Forgets a run's staged items before `before` (all of them without it). */
export async function dropStaged(db: Db, runId: string, before?: number): Promise<void> {
  let query = db.deleteFrom('import_staging').where('run_id', '=', runId);
  if (before !== undefined) query = query.where('position', '<', before);
  await query.execute();
}
