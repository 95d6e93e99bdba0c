import { type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database, DialectName } from './schema';

// SQL that more than one feature's repo needs: kept here, beside the tables, so no feature reads
// another's repo (decision 035).

/**
 * A person as the site shows them, read through their id whenever they are shown: the stored
 * profile's name and photo over the account's (docs/product.md#subscriber-user-record-signed-in-person, as
 * withStoredProfile), never a copy
 * (docs/decisions/022). Correlated subqueries by primary key, so a list keeps its index-served
 * plan and reads one profile and one account per row it shows.
 */
export function shownName(userIdColumn: string): RawBuilder<string | null> {
  return sql<string | null>`coalesce((select p.name from profiles p where p.user_id = ${sql.ref(userIdColumn)}), (select u.name from "user" u where u.id = ${sql.ref(userIdColumn)}))`;
}

export function shownPhoto(userIdColumn: string): RawBuilder<string | null> {
  return sql<string | null>`coalesce((select p.photo from profiles p where p.user_id = ${sql.ref(userIdColumn)}), (select u.image from "user" u where u.id = ${sql.ref(userIdColumn)}))`;
}

/**
 * The comment and its share of its blog's count, together (call inside a transaction). A comment
 * that replies hang under stays as a "[deleted]" placeholder, its text gone, so the thread below it
 * still reads (docs/decisions/060); it leaves the count all the same.
 */
export async function deleteComment(db: Kysely<Database>, id: string, blogId: string, at: string): Promise<number> {
  const reply = await db.selectFrom('comments').select('id').where('parent_id', '=', id).limit(1).executeTakeFirst();
  const result = reply
    ? await db
        .updateTable('comments')
        .set({ deleted_at: at, comment_text: DELETED_COMMENT_TEXT, pinned_at: null })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst()
    : await db.deleteFrom('comments').where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  const deleted = Number('numUpdatedRows' in result ? result.numUpdatedRows : result.numDeletedRows);
  if (deleted > 0) {
    await db
      .updateTable('blogs')
      .set((eb) => ({ comments_count: eb('comments_count', '-', deleted) }))
      .where('id', '=', blogId)
      .execute();
  }
  return deleted;
}

/** What a deleted comment's row keeps in place of its text (the column allows no empty text). */
export const DELETED_COMMENT_TEXT = '[deleted]';

/**
 * The blog visibility rule's first part (docs/decisions/028, 029): Public, not removed by a
 * moderator and not waiting for one — what everyone may see. Every list of blogs reads through it
 * (the blogs feature's lists, search and feeds; wishlists), each adding the viewer's own.
 */
export function blogShownToAll<TB extends keyof Database>(eb: ExpressionBuilder<Database, TB | 'blogs'>): Expression<SqlBool> {
  const blogs = eb as unknown as ExpressionBuilder<Database, 'blogs'>;
  return blogs.and([blogs('blogs.availability', '=', 'Public'), blogs('blogs.removed_at', 'is', null), blogs('blogs.pending_since', 'is', null)]);
}

/** The columns of a leased queue: what differs between the mail queue and the jobs table. */
export interface LeasedQueue {
  table: 'mail_queue' | 'jobs';
  /** The status of a row waiting, and of one claimed. */
  waiting: string;
  claimed: string;
  /** When a waiting row is due, and until when a claim holds. */
  dueAt: string;
  leaseUntil: string;
}

/**
 * Claims up to `limit` due rows of a leased queue for one worker, atomically: waiting rows whose
 * time has come, and claimed rows whose lease ran out (their worker died). On PostgreSQL SKIP
 * LOCKED lets instances claim side by side without waiting or overlapping; SQLite has one
 * writer, so its UPDATE … RETURNING is atomic as it stands (decisions 023, 057).
 */
export async function claimLeased<R>(
  db: Kysely<Database>,
  dialect: DialectName,
  queue: LeasedQueue,
  q: { now: string; leaseUntil: string; worker: string; limit: number; returning: string[] },
): Promise<R[]> {
  const lock = dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const [table, dueAt, leaseUntil] = [sql.table(queue.table), sql.ref(queue.dueAt), sql.ref(queue.leaseUntil)];
  const result = await sql<R>`
    update ${table} set status = ${queue.claimed}, ${leaseUntil} = ${q.leaseUntil}, claimed_by = ${q.worker}, attempts = attempts + 1
    where id in (
      select id from ${table}
      where (status = ${queue.waiting} and ${dueAt} <= ${q.now}) or (status = ${queue.claimed} and ${leaseUntil} < ${q.now})
      order by ${dueAt}, id
      limit ${q.limit}
      ${lock}
    )
    returning ${sql.join(q.returning.map((c) => sql.ref(c)))}`.execute(db);
  return result.rows;
}

/** Hands a worker's claimed rows back untouched (it is stopping): the attempt did not happen. */
export async function releaseLeased(db: Kysely<Database>, queue: LeasedQueue, worker: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`
    update ${sql.table(queue.table)} set status = ${queue.waiting}, ${sql.ref(queue.leaseUntil)} = null, claimed_by = null, attempts = attempts - 1
    where id in (${sql.join(ids)}) and status = ${queue.claimed} and claimed_by = ${worker}`.execute(db);
}

/** A comment every reader sees: not deleted, hidden, removed or waiting (what may go out to the fediverse too). */
export const shownToEveryone = (eb: ExpressionBuilder<Database, 'comments'>) =>
  eb.and([eb('comments.deleted_at', 'is', null), eb('comments.hidden_at', 'is', null), eb('comments.removed_at', 'is', null), eb('comments.pending_since', 'is', null)]);
