import { type ExpressionBuilder, type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { AccountApprovalsTable, Database, ModerationLogTable, ReportsTable, ReportTargetType, Role, UserRestrictionsTable } from '~/db/schema';
import { shownName } from '~/db/shared-sql.server';

type Db = Kysely<Database>;

export async function findRole(db: Db, userId: string): Promise<Role | null> {
  const row = await db.selectFrom('user_roles').select('role').where('user_id', '=', userId).executeTakeFirst();
  return row?.role ?? null;
}

export async function upsertRole(db: Db, row: Database['user_roles']): Promise<void> {
  await db
    .insertInto('user_roles')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ role: row.role, granted_by: row.granted_by, granted_at: row.granted_at }))
    .execute();
}

export async function deleteRole(db: Db, userId: string, role: Role): Promise<number> {
  const result = await db.deleteFrom('user_roles').where('user_id', '=', userId).where('role', '=', role).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function listStaff(db: Db) {
  return db
    .selectFrom('user_roles')
    .innerJoin('user', 'user.id', 'user_roles.user_id')
    .select(['user_roles.user_id', 'user_roles.role', 'user_roles.granted_at', shownName('user_roles.user_id').as('name'), 'user.email'])
    .orderBy('user_roles.role')
    .orderBy('user_roles.granted_at')
    .execute();
}

export async function findUserIdByEmail(db: Db, email: string): Promise<string | null> {
  const row = await db.selectFrom('user').select('id').where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
  return row?.id ?? null;
}

export async function findUserSummary(db: Db, userId: string) {
  return db.selectFrom('user').select(['user.id', shownName('user.id').as('name')]).where('user.id', '=', userId).executeTakeFirst();
}

export async function insertLog(db: Db, row: Insertable<ModerationLogTable>): Promise<void> {
  await db.insertInto('moderation_log').values(row).execute();
}

export async function listLog(db: Db, page: { limit: number; offset: number }) {
  return db
    .selectFrom('moderation_log')
    .select(['id', 'actor_id', shownName('moderation_log.actor_id').as('actor_name'), 'action', 'target_type', 'target_id', 'reason', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/**
 * What the audit log's targets are called now, for the log in words: a person's shown name, a
 * blog's title, the title of the blog a comment is on (with its id, for the link). What was
 * deleted since is simply missing.
 */
export async function findLogTargets(db: Db, ids: { user: string[]; blog: string[]; comment: string[] }) {
  const none = Promise.resolve([]);
  const [users, blogs, comments] = await Promise.all([
    ids.user.length ? db.selectFrom('user').select(['user.id', shownName('user.id').as('name')]).where('user.id', 'in', ids.user).execute() : none,
    ids.blog.length ? db.selectFrom('blogs').select(['id', 'title as name', 'slug']).where('id', 'in', ids.blog).execute() : none,
    ids.comment.length
      ? db.selectFrom('comments').innerJoin('blogs', 'blogs.id', 'comments.blog_id').select(['comments.id', 'blogs.title as name', 'blogs.id as blog_id', 'blogs.slug as blog_slug']).where('comments.id', 'in', ids.comment).execute()
      : none,
  ]);
  return {
    users: users as { id: string; name: string | null }[],
    blogs: blogs as { id: string; name: string; slug: string }[],
    comments: comments as { id: string; name: string; blog_id: string; blog_slug: string }[],
  };
}

/** The readable part of each named blog's address (docs/decisions/069), for the screen's links. */
export async function findBlogSlugs(db: Db, ids: string[]): Promise<{ id: string; slug: string }[]> {
  return ids.length ? db.selectFrom('blogs').select(['id', 'slug']).where('id', 'in', ids).execute() : [];
}

export async function countLog(db: Db): Promise<number> {
  const row = await db.selectFrom('moderation_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The blog a report or an action is about, whatever its state. */
export async function findBlogForModeration(db: Db, id: string) {
  return db
    .selectFrom('blogs')
    .select(['id', 'owner_id', 'title', 'short_description', 'long_description', 'availability', 'removed_at', 'removed_reason'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findCommentForModeration(db: Db, id: string) {
  return db
    .selectFrom('comments')
    .select(['id', 'blog_id', 'user_id', 'parent_id', 'comment_text', 'removed_at', 'removed_reason', 'deleted_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function setRemoved(db: Db, table: 'blogs' | 'comments', id: string, removal: { removed_at: string | null; removed_reason: string | null }): Promise<number> {
  const result = await db.updateTable(table).set(removal).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteBlogRow(db: Db, id: string): Promise<number> {
  const result = await db.deleteFrom('blogs').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The comment and its share of its blog's count, together: the same query the blogs feature runs. */
export { deleteComment as deleteCommentRow } from '~/db/shared-sql.server';

export async function insertReport(db: Db, row: Insertable<ReportsTable>): Promise<number> {
  const result = await db
    .insertInto('reports')
    .values(row)
        // The literal predicate, not a parameter: the conflict target must name the partial index's own.
    .onConflict((oc) => oc.columns(['reporter_id', 'target_type', 'target_id']).where(sql<boolean>`status = 'open'`).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** A report from another server; 0 when that actor's report on the target is open already. */
export async function insertRemoteReport(db: Db, row: Insertable<ReportsTable>): Promise<number> {
  const result = await db
    .insertInto('reports')
    .values(row)
    .onConflict((oc) => oc.columns(['remote_actor_uri', 'target_type', 'target_id']).where(sql<boolean>`status = 'open' and remote_actor_uri is not null`).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export async function findOpenReport(db: Db, id: string) {
  return db.selectFrom('reports').selectAll().where('id', '=', id).where('status', '=', 'open').executeTakeFirst();
}

export type ReportRow = Selectable<ReportsTable> & { reporter_name: string | null };

/** Open reports, newest first, at most `limit` (the queue groups them by target). */
export async function listOpenReports(db: Db, limit: number): Promise<ReportRow[]> {
  return db
    .selectFrom('reports')
    .selectAll()
    .select(shownName('reports.reporter_id').as('reporter_name'))
    .where('status', '=', 'open')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function closeReports(db: Db, target: { type: ReportTargetType; id: string }, status: 'dismissed' | 'resolved', by: string | null, at: string, reportId?: string): Promise<number> {
  let query = db
    .updateTable('reports')
    .set({ status, resolved_by: by, resolved_at: at })
    .where('status', '=', 'open')
    .where('target_type', '=', target.type)
    .where('target_id', '=', target.id);
  if (reportId) query = query.where('id', '=', reportId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function upsertRestriction(db: Db, row: UserRestrictionsTable): Promise<void> {
  await db
    .insertInto('user_restrictions')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ until: row.until, reason: row.reason, created_by: row.created_by, created_at: row.created_at }))
    .execute();
}

export async function deleteRestriction(db: Db, userId: string, kind: UserRestrictionsTable['kind']): Promise<number> {
  const result = await db.deleteFrom('user_restrictions').where('user_id', '=', userId).where('kind', '=', kind).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Every session of the user, hence every cookie and bearer token (a bearer token is a session's token). */
export async function deleteSessions(db: Db, userId: string): Promise<number> {
  const result = await (db as unknown as Kysely<{ session: { userId: string } }>).deleteFrom('session').where('userId', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Moderation sees only what others can see or saw: never a Hidden blog (a private draft), nor the
 * comments on one (docs/decisions/028).
 */
const notDraft = (eb: ExpressionBuilder<Database, 'blogs'>) => eb('blogs.availability', '!=', 'Hidden');
const onNoDraft = (eb: ExpressionBuilder<Database, 'comments'>) =>
  eb.exists(eb.selectFrom('blogs').select('blogs.id').whereRef('blogs.id', '=', 'comments.blog_id').where('blogs.availability', '!=', 'Hidden'));

/** Blogs and comments a moderator removed, the latest removal first. */
export async function listRemoved(db: Db, limit: number) {
  const blogs = db
    .selectFrom('blogs')
    .select([sql<'blog' | 'comment'>`'blog'`.as('type'), 'id', 'title as text', 'removed_at', 'removed_reason', 'id as blog_id'])
    .where('removed_at', 'is not', null)
    .where(notDraft);
  const comments = db
    .selectFrom('comments')
    .select([sql<'blog' | 'comment'>`'comment'`.as('type'), 'id', 'comment_text as text', 'removed_at', 'removed_reason', 'blog_id'])
    .where('removed_at', 'is not', null)
    .where(onNoDraft);
  const rows = await db.selectFrom(blogs.unionAll(comments).as('removed')).selectAll().orderBy('removed_at', 'desc').orderBy('id').limit(limit).execute();
  return rows as { type: 'blog' | 'comment'; id: string; text: string; removed_at: string; removed_reason: string | null; blog_id: string }[];
}

// --- The spam hold (docs/decisions/029) ------------------------------------------------------

/** Accounts with something held or waiting for a moderator: blogs on hold, or blogs or comments waiting. */
export async function countAccountsWaiting(db: Db): Promise<number> {
  const owners = db
    .selectFrom('blogs')
    .select('owner_id as account')
    .where((eb) => eb.or([eb('held_until', 'is not', null), eb('pending_since', 'is not', null)]))
    .union(db.selectFrom('comments').select('user_id as account').where('pending_since', 'is not', null).where('user_id', 'is not', null).$narrowType<{ account: string }>());
  const row = await db.selectFrom(owners.as('waiting')).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertApproval(db: Db, row: Insertable<AccountApprovalsTable>): Promise<number> {
  const result = await db
    .insertInto('account_approvals')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

const RELEASED = ['id', 'owner_id', 'availability', 'removed_at', 'held_until', 'pending_since'] as const;

/** Every blog and comment of the account leaves the hold and the queue; answers the blogs. */
export async function releaseAccount(db: Db, userId: string) {
  const blogs = await db
    .updateTable('blogs')
    .set({ held_until: null, pending_since: null })
    .where('owner_id', '=', userId)
    .where((eb) => eb.or([eb('held_until', 'is not', null), eb('pending_since', 'is not', null)]))
    .returning(RELEASED)
    .execute();
  await db.updateTable('comments').set({ pending_since: null }).where('user_id', '=', userId).where('pending_since', 'is not', null).execute();
  return blogs;
}

/** Blogs whose hold ran out by `now` leave it (the release job); answers them. */
export async function releaseExpiredHolds(db: Db, now: string) {
  return db.updateTable('blogs').set({ held_until: null }).where('held_until', 'is not', null).where('held_until', '<=', now).returning(RELEASED).execute();
}

/** Approves one waiting blog; answers its row after it. */
export async function clearPendingBlog(db: Db, id: string) {
  return db.updateTable('blogs').set({ pending_since: null }).where('id', '=', id).where('pending_since', 'is not', null).returning(RELEASED).executeTakeFirst();
}

export async function clearPendingComment(db: Db, id: string): Promise<number> {
  const result = await db.updateTable('comments').set({ pending_since: null }).where('id', '=', id).where('pending_since', 'is not', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Blogs and comments waiting for a moderator, the oldest first (they have waited longest). */
export async function listPending(db: Db, limit: number) {
  const blogs = db
    .selectFrom('blogs')
    .select([sql<'blog' | 'comment'>`'blog'`.as('type'), 'id', 'owner_id', 'title', 'long_description as text', 'pending_since', 'id as blog_id'])
    .where('pending_since', 'is not', null)
    .where(notDraft);
  const comments = db
    .selectFrom('comments')
    // Only local accounts are held (decision 029): user_id is set on every waiting comment.
    .select([sql<'blog' | 'comment'>`'comment'`.as('type'), 'id', sql<string>`user_id`.as('owner_id'), sql<string>`''`.as('title'), 'comment_text as text', 'pending_since', 'blog_id'])
    .where('pending_since', 'is not', null)
    .where(onNoDraft);
  const rows = await db
    .selectFrom(blogs.unionAll(comments).as('pending'))
    .selectAll()
    .select(shownName('pending.owner_id').as('owner_name'))
    .orderBy('pending_since')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows as { type: 'blog' | 'comment'; id: string; owner_id: string; owner_name: string | null; title: string; text: string; pending_since: string; blog_id: string }[];
}

/** Accounts with blogs still held (newest hold first), for "Approve account". */
export async function listHeldAccounts(db: Db, limit: number) {
  return db
    .selectFrom('blogs')
    .select(['owner_id', shownName('blogs.owner_id').as('name'), (eb) => eb.fn.max('held_until').as('held_until'), (eb) => eb.fn.countAll<number>().as('blogs')])
    .where('held_until', 'is not', null)
    .groupBy('owner_id')
    .orderBy('held_until', 'desc')
    .limit(limit)
    .execute();
}
